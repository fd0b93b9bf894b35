-- unlinkTasks: removes dependencies from both tasks of each edge (absent edges are ignored).
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] n edges, then per edge: blocked id, blocker id
-- Returns ok { task tuple of each changed task } with events task updated (each);
-- err TEAM_NOT_FOUND; err TASK_NOT_FOUND { id }.
local base, env = KEYS[1], ARGV[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local n = tonumber(ARGV[2])
for i = 0, n * 2 - 1 do
  local id = ARGV[3 + i]
  if R('EXISTS', tkey(P, id)) == 0 then return fail('TASK_NOT_FOUND', id) end
end
local changes = task_changes()
local touch = changes.touch
for i = 0, n - 1 do
  local blocked, blocker = ARGV[3 + i * 2], ARGV[4 + i * 2]
  local bb = decode_ids(R('HGET', tkey(P, blocked), 'blockedBy'))
  if contains(bb, blocker) then
    R('HSET', tkey(P, blocked), 'blockedBy', encode_ids(without(bb, blocker)))
    touch(blocked, 'blockedBy')
  end
  local bk = decode_ids(R('HGET', tkey(P, blocker), 'blocks'))
  if contains(bk, blocked) then
    R('HSET', tkey(P, blocker), 'blocks', encode_ids(without(bk, blocked)))
    touch(blocker, 'blocks')
  end
end
return done(base, changes.finish(P, env))
