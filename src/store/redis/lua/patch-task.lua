-- patchTask: changes a task. Its document (subject, description, activeForm, metadata, unknown
-- keys) was patched by the caller from the copy it read (metadata merge is a TypeScript rule):
-- written only if the document version is still that one (compare-and-set). Status and owner,
-- and the rules on them, are checked here: `expect` (compare-and-set on status/owner), refusing
-- to start or complete a task with an open blocker, a reopening clearing an owner who left the
-- team, and `in_progress` on an unowned task without an owner making the actor its owner.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] id   ARGV[3] expected document version ('' = document unchanged)
-- ARGV[4] new document   ARGV[5] internal ('1' | '0')   ARGV[6] document keys changed (comma-separated)
-- ARGV[7] owner: 'keep' | 'clear' | 'set'   ARGV[8] new owner   ARGV[9] status ('' = keep)
-- ARGV[10] expected status ('' = any)   ARGV[11] expected owner: 'any' | 'none' | 'value'   ARGV[12] its value
-- ARGV[13] actor ('' = none)   ARGV[14] the writer's fencing token ('' = an unfenced write)
-- A fenced write is refused unless the actor owns the task under exactly that token
-- (src/domain/task-fence.ts): err TASK_FENCED { id, token, current, owner }. A new owner is a
-- claim: the task's next fencing token is issued.
-- Returns ok { before tuple, after tuple } with event task updated (when it changed); retry;
-- err TEAM_NOT_FOUND; err TASK_NOT_FOUND { id }; err TASK_CONFLICT { id, status, owner };
-- err TASK_BLOCKED { id, open blocker ids... }.
local base, env, id = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local k = tkey(P, id)
local before = task_tuple(P, id)
if not before then return fail('TASK_NOT_FOUND', id) end
if ARGV[3] ~= '' and R('HGET', k, 'dver') ~= ARGV[3] then return { 'retry' } end
local status, owner = before[3], before[4]
if ARGV[14] ~= '' then
  local current = fence_of(P, id)
  if unowned(owner) or owner ~= ARGV[13] or fence_text(current) ~= ARGV[14] then
    return fail('TASK_FENCED', id, ARGV[14], fence_text(current), owner or '')
  end
end
local conflict = (ARGV[10] ~= '' and status ~= ARGV[10])
  or (ARGV[11] == 'none' and not unowned(owner))
  or (ARGV[11] == 'value' and owner ~= ARGV[12])
if conflict then return fail('TASK_CONFLICT', id, status, owner or '') end
local newOwner = owner
if ARGV[7] == 'clear' then newOwner = false elseif ARGV[7] == 'set' then newOwner = ARGV[8] end
local newStatus = ARGV[9] ~= '' and ARGV[9] or status
-- Reopening for an owner who left (src/domain/task-patch.ts reopensForDeparted): a status change
-- into pending or in_progress that names no owner clears an owner that is neither a member's name
-- nor its agentId, in this same step as the member's removal is one.
if ARGV[7] == 'keep' and ARGV[9] ~= '' and newStatus ~= status and (newStatus == 'pending' or newStatus == 'in_progress')
  and not unowned(newOwner) and R('EXISTS', mkey(P, newOwner)) == 0 and R('HEXISTS', P .. 'agents', newOwner) == 0 then
  newOwner = false
end
if (newStatus == 'in_progress' or newStatus == 'completed') and newStatus ~= status then
  local open = open_blockers(P, before[6])
  if #open > 0 then return fail('TASK_BLOCKED', id, unpack(open)) end
end
if newStatus == 'in_progress' and ARGV[9] ~= '' and ARGV[7] == 'keep' and unowned(newOwner) and ARGV[13] ~= '' then
  newOwner = ARGV[13]
end
local changed = split(ARGV[6])
if newOwner ~= owner and not (unowned(newOwner) and unowned(owner) and (newOwner or '') == (owner or '')) then
  changed[#changed + 1] = 'owner'
end
if newStatus ~= status then changed[#changed + 1] = 'status' end
local claimed = newOwner and newOwner ~= '' and newOwner ~= owner
if claimed then changed[#changed + 1] = 'fencingToken' end
if #changed == 0 then return done(base, { before, before }) end
if ARGV[3] ~= '' then
  R('HSET', k, 'doc', ARGV[4], 'internal', ARGV[5])
  R('HINCRBY', k, 'dver', 1)
end
if newOwner then R('HSET', k, 'owner', newOwner) else R('HDEL', k, 'owner') end
R('HSET', k, 'status', newStatus)
if claimed then issue_fence(P, id) end
bump_task(P, id)
local after = task_tuple(P, id)
task_event(P, env, 'updated', after, table.concat(changed, ','))
return done(base, { before, after })
