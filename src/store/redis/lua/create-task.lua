-- createTask: creates a task with the next id from INCR (never reused, also after deletions)
-- and links its blockers both ways. An idempotency key is taken with SET NX PX in this step.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] idempotency key ('' = none)   ARGV[3] key ttl (ms)
-- ARGV[4] task JSON after its first member (the doc is '{"id":"<id>"' .. ARGV[4])
-- ARGV[5] owner ('' = none)   ARGV[6] blockedBy (JSON array of existing ids)   ARGV[7] internal ('1' | '0')
-- Returns ok { 'fresh', task tuple } | ok { 'replayed', snapshot JSON } with events task created,
-- task updated (each blocker, `blocks`); err TEAM_NOT_FOUND; err TASK_NOT_FOUND { id }.
local base, env, idem = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local idemKey = P .. 'idem:t:' .. idem
if idem ~= '' then
  local prev = R('GET', idemKey)
  if prev then return done(base, { 'replayed', prev }) end
end
local blockers = decode_ids(ARGV[6])
for _, b in ipairs(blockers) do
  if R('EXISTS', tkey(P, b)) == 0 then return fail('TASK_NOT_FOUND', b) end
end
R('INCR', P .. 'hwm')
local id = R('GET', P .. 'hwm')
local doc = '{"id":' .. cjson.encode(id) .. ARGV[4]
local k = tkey(P, id)
R('HSET', k, 'doc', doc, 'status', 'pending', 'blocks', '[]', 'blockedBy', ARGV[6], 'internal', ARGV[7], 'ver', '1', 'dver', '1')
if ARGV[5] ~= '' then R('HSET', k, 'owner', ARGV[5]) end
R('ZADD', P .. 'tasks', 0, pad(id))
local created = task_tuple(P, id)
task_event(P, env, 'created', created, nil)
for _, b in ipairs(blockers) do
  local bk = tkey(P, b)
  local blocks = decode_ids(R('HGET', bk, 'blocks'))
  if not contains(blocks, id) then
    blocks[#blocks + 1] = id
    R('HSET', bk, 'blocks', encode_ids(blocks))
    bump_task(P, b)
    task_event(P, env, 'updated', task_tuple(P, b), 'blocks')
  end
end
if idem ~= '' then
  R('SET', idemKey, cjson.encode({ created[1], created[2], created[3], created[4] or '', created[4] and '1' or '0', created[5], created[6] }), 'PX', ARGV[3])
end
return done(base, { 'fresh', created })
