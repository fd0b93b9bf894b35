-- deleteTask: deletes a task and strips its id from every other task's blocks/blockedBy. Its
-- id is never reused: ids come from INCR on the high-water mark, which is raised to the id if
-- it was lower (a task copied in).
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] id
-- Returns ok task tuple (as it was) with events task deleted, task updated (each stripped);
-- err TEAM_NOT_FOUND; err TASK_NOT_FOUND { id }.
local base, env, id = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local gone = task_tuple(P, id)
if not gone then return fail('TASK_NOT_FOUND', id) end
local hwm = R('GET', P .. 'hwm') or '0'
if #id > #hwm or (#id == #hwm and id > hwm) then R('SET', P .. 'hwm', id) end
R('DEL', tkey(P, id))
R('ZREM', P .. 'tasks', pad(id))
task_event(P, env, 'deleted', gone, nil)
for _, other in ipairs(task_ids(P)) do
  local k = tkey(P, other)
  local v = R('HMGET', k, 'blocks', 'blockedBy')
  local bk, bb = decode_ids(v[1]), decode_ids(v[2])
  local changed = {}
  if contains(bk, id) then
    R('HSET', k, 'blocks', encode_ids(without(bk, id)))
    changed[#changed + 1] = 'blocks'
  end
  if contains(bb, id) then
    R('HSET', k, 'blockedBy', encode_ids(without(bb, id)))
    changed[#changed + 1] = 'blockedBy'
  end
  if #changed > 0 then
    bump_task(P, other)
    task_event(P, env, 'updated', task_tuple(P, other), table.concat(changed, ','))
  end
end
return done(base, gone)
