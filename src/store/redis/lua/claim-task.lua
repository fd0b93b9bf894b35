-- claimTask: claims a task for a member (owner = claimant, status in_progress), one winner
-- among racing claims: the checks and the write are this one step. The rules are those of
-- src/domain/task-claim.ts (claimCandidates, busyRefusal, claimRefusal; ready = pending, unowned,
-- not metadata._internal, no open blocker) and Claude Code's refusal reasons in its order:
-- agent_busy, already_claimed, already_resolved, blocked; then mailroom's missing_capability
-- (src/domain/capabilities.ts: the task's metadata.requires, a name or a list, against the
-- capabilities of the claimant's member record in the generation's 'records' hash).
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] claimant   ARGV[3] task id ('' = the lowest-id ready task)
-- ARGV[4] preferAssigned ('1' | '0')   ARGV[5] busyCheck ('1' | '0')
-- Every claim issues the task's next fencing token (hash field 'fence', issue_fence: max(previous + 1, TIME in ms)).
-- Returns ok task tuple | ok false (no ready task) with event task updated (when it changed);
-- err TEAM_NOT_FOUND; err TASK_NOT_FOUND { id }; err TASK_ALREADY_CLAIMED { id, owner, status };
-- err TASK_ALREADY_RESOLVED { id }; err TASK_BLOCKED { id, open blocker ids... }; err AGENT_BUSY { owned ids... };
-- err MISSING_CAPABILITY { id, required csv, declared csv }.
local base, env, claimant, target = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end

-- The claimant's declared capabilities, as a set (none without a record, or with a malformed one).
local declared, declared_list = {}, {}
do
  local raw = R('HGET', P .. 'records', claimant)
  local ok, rec = pcall(cjson.decode, raw or '')
  if ok and type(rec) == 'table' and type(rec.capabilities) == 'table' then
    for _, c in ipairs(rec.capabilities) do
      if type(c) == 'string' and not declared[c] then declared[c] = true declared_list[#declared_list + 1] = c end
    end
  end
end

-- The task's required capabilities (deduplicated, in order) and those the claimant lacks.
local function requirement(id)
  local ok, t = pcall(cjson.decode, R('HGET', tkey(P, id), 'doc') or '')
  local req = ok and type(t) == 'table' and type(t.metadata) == 'table' and t.metadata.requires or nil
  if type(req) == 'string' then req = { req } end
  local required, lacking, seen = {}, {}, {}
  if type(req) == 'table' then
    for _, c in ipairs(req) do
      if type(c) == 'string' and c ~= '' and not seen[c] then
        seen[c] = true
        required[#required + 1] = c
        if not declared[c] then lacking[#lacking + 1] = c end
      end
    end
  end
  return required, lacking
end

local function busy(except)
  local owned = {}
  for _, id in ipairs(task_ids(P)) do
    local v = R('HMGET', tkey(P, id), 'owner', 'status')
    if id ~= except and v[1] == claimant and v[2] ~= 'completed' then owned[#owned + 1] = id end
  end
  return owned
end

local function claimable(id, assigned)
  local v = R('HMGET', tkey(P, id), 'status', 'owner', 'internal', 'blockedBy')
  if v[1] ~= 'pending' or v[3] == '1' then return false end
  if assigned then
    if v[2] ~= claimant then return false end
  elseif not unowned(v[2]) then
    return false
  end
  if #open_blockers(P, v[4]) > 0 then return false end
  local _, lacking = requirement(id)
  return #lacking == 0
end

if target == '' then
  local ids = task_ids(P)
  local pick = nil
  if ARGV[4] == '1' then
    for _, id in ipairs(ids) do
      if claimable(id, true) then pick = id break end
    end
  end
  if ARGV[5] == '1' then
    local owned = busy(pick)
    if #owned > 0 then return fail('AGENT_BUSY', unpack(owned)) end
  end
  if not pick then
    for _, id in ipairs(ids) do
      if claimable(id, false) then pick = id break end
    end
  end
  if not pick then return done(base, false) end
  target = pick
else
  if R('EXISTS', tkey(P, target)) == 0 then return fail('TASK_NOT_FOUND', target) end
  if ARGV[5] == '1' then
    local owned = busy(target)
    if #owned > 0 then return fail('AGENT_BUSY', unpack(owned)) end
  end
end

local k = tkey(P, target)
local v = R('HMGET', k, 'status', 'owner', 'blockedBy')
if not unowned(v[2]) and v[2] ~= claimant then return fail('TASK_ALREADY_CLAIMED', target, v[2], v[1]) end
if v[1] == 'completed' then return fail('TASK_ALREADY_RESOLVED', target) end
local open = open_blockers(P, v[3])
if #open > 0 then return fail('TASK_BLOCKED', target, unpack(open)) end
local required, lacking = requirement(target)
if #lacking > 0 then return fail('MISSING_CAPABILITY', target, table.concat(required, ','), table.concat(declared_list, ',')) end
local changed = {}
if v[2] ~= claimant then changed[#changed + 1] = 'owner' end
if v[1] ~= 'in_progress' then changed[#changed + 1] = 'status' end
-- Every claim issues the task's next fencing token (a re-claim by its owner too).
changed[#changed + 1] = 'fencingToken'
R('HSET', k, 'owner', claimant, 'status', 'in_progress')
issue_fence(P, target)
bump_task(P, target)
local t = task_tuple(P, target)
task_event(P, env, 'updated', t, table.concat(changed, ','))
return done(base, t)
