-- putTask: writes a task as it is under its id (a mirror of another store's board: the bridge):
-- created when absent, replaced when different; the high-water mark raised to its id.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] id   ARGV[3] task document JSON   ARGV[4] status
-- ARGV[5] owner ('' = none)   ARGV[6] blocks (JSON array)   ARGV[7] blockedBy (JSON array)
-- ARGV[8] internal ('1' | '0')   ARGV[9] fencing token ('' = none; kept in the 'fence' field)
-- ARGV[10] compare-and-set (optional): 'absent' | 'match' (then ARGV[11..16]: the expected task's
--         document JSON, status, owner ('' = none), blocks, blockedBy, fence); not met: err TASK_CONFLICT
--         { id, status ('absent' when none), owner }
-- Returns ok task tuple (as stored) with events task created | task updated (the top-level keys
-- whose value changed); nothing when equal; err TEAM_NOT_FOUND, TASK_CONFLICT.
local base, env, id = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local k = tkey(P, id)
local before = task_tuple(P, id)
local owner = ARGV[5]
local function doc_differs(x, y)
  if x == y then return false end
  local a, b = cjson.decode(x), cjson.decode(y)
  local skip = { id = true, status = true, owner = true, blocks = true, blockedBy = true }
  for key, v in pairs(a) do if not skip[key] and (b[key] == nil or cjson.encode(v) ~= cjson.encode(b[key])) then return true end end
  for key, _ in pairs(b) do if not skip[key] and a[key] == nil then return true end end
  return false
end
local fence = ARGV[9]
local function fence_str(t) return t and t[7] and tostring(t[7]) or '' end
if ARGV[10] == 'absent' and before then return fail('TASK_CONFLICT', id, before[3], before[4] or '') end
if ARGV[10] == 'match' then
  if not before or before[3] ~= ARGV[12] or (before[4] or '') ~= ARGV[13] or before[5] ~= ARGV[14] or before[6] ~= ARGV[15] or fence_str(before) ~= ARGV[16] or doc_differs(before[2], ARGV[11]) then
    return fail('TASK_CONFLICT', id, before and before[3] or 'absent', before and before[4] or '')
  end
end
if before and before[2] == ARGV[3] and before[3] == ARGV[4] and (before[4] or '') == owner and before[5] == ARGV[6] and before[6] == ARGV[7] and fence_str(before) == fence then
  return done(base, before)
end
R('HSET', k, 'doc', ARGV[3], 'status', ARGV[4], 'blocks', ARGV[6], 'blockedBy', ARGV[7], 'internal', ARGV[8])
if owner ~= '' then R('HSET', k, 'owner', owner) else R('HDEL', k, 'owner') end
if fence ~= '' then R('HSET', k, 'fence', fence) else R('HDEL', k, 'fence') end
local hwm = R('GET', P .. 'hwm') or '0'
if #id > #hwm or (#id == #hwm and id > hwm) then R('SET', P .. 'hwm', id) end
if before then
  bump_task(P, id)
  R('HINCRBY', k, 'dver', 1)
  local changed = {}
  if before[2] ~= ARGV[3] then
    -- the document's own keys (status, owner and links live in hash fields, compared below)
    local a, b = cjson.decode(before[2]), cjson.decode(ARGV[3])
    local skip = { id = true, status = true, owner = true, blocks = true, blockedBy = true }
    local seen = {}
    for key, _ in pairs(a) do seen[key] = true end
    for key, _ in pairs(b) do seen[key] = true end
    local names = {}
    for key, _ in pairs(seen) do if not skip[key] then names[#names + 1] = key end end
    table.sort(names)
    for _, key in ipairs(names) do
      if a[key] == nil or b[key] == nil or cjson.encode(a[key]) ~= cjson.encode(b[key]) then changed[#changed + 1] = key end
    end
  end
  if before[3] ~= ARGV[4] then changed[#changed + 1] = 'status' end
  if (before[4] or '') ~= owner then changed[#changed + 1] = 'owner' end
  if before[5] ~= ARGV[6] then changed[#changed + 1] = 'blocks' end
  if before[6] ~= ARGV[7] then changed[#changed + 1] = 'blockedBy' end
  if fence_str(before) ~= fence then changed[#changed + 1] = 'fencingToken' end
  task_event(P, env, 'updated', task_tuple(P, id), table.concat(changed, ','))
else
  R('HSET', k, 'ver', '1', 'dver', '1')
  R('ZADD', P .. 'tasks', 0, pad(id))
  task_event(P, env, 'created', task_tuple(P, id), nil)
end
return done(base, task_tuple(P, id))
