-- linkTasks: adds dependencies (blocked gains the blocker in blockedBy, the blocker gains the
-- blocked in blocks). A dependency that would close a cycle is refused and nothing changes:
-- every edge is checked (breadth-first over blockedBy, with the edges of this call added in
-- order, as src/domain/task-board.ts findCycle) before the first write.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] n edges, then per edge: blocked id, blocker id
-- Returns ok { task tuple of each changed task } with events task updated (each);
-- err TEAM_NOT_FOUND; err TASK_NOT_FOUND { id }; err TASK_CYCLE { blocked, blocker, cycle ids... }.
local base, env = KEYS[1], ARGV[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local n = tonumber(ARGV[2])
local edges = {}
for i = 0, n - 1 do
  local e = { ARGV[3 + i * 2], ARGV[4 + i * 2] }
  for _, id in ipairs(e) do
    if R('EXISTS', tkey(P, id)) == 0 then return fail('TASK_NOT_FOUND', id) end
  end
  edges[#edges + 1] = e
end
local deps = {}
local function blocked_by(id)
  if not deps[id] then deps[id] = decode_ids(R('HGET', tkey(P, id), 'blockedBy')) end
  return deps[id]
end
-- Path from `from` to `to` along blockedBy, or nil.
local function path_via(from, to)
  local parent, queue = { [from] = false }, { from }
  local i = 1
  while i <= #queue do
    local id = queue[i]
    if id == to then
      local path = {}
      local cur = id
      while cur do
        table.insert(path, 1, cur)
        cur = parent[cur]
      end
      return path
    end
    for _, nxt in ipairs(blocked_by(id)) do
      if parent[nxt] == nil then
        parent[nxt] = id
        queue[#queue + 1] = nxt
      end
    end
    i = i + 1
  end
  return nil
end
for _, e in ipairs(edges) do
  local blocked, blocker = e[1], e[2]
  local cycle = nil
  if blocked == blocker then
    cycle = { blocked, blocked }
  else
    local path = path_via(blocker, blocked)
    if path then
      cycle = { blocked }
      for _, id in ipairs(path) do cycle[#cycle + 1] = id end
    end
  end
  if cycle then return fail('TASK_CYCLE', blocked, blocker, unpack(cycle)) end
  local list = blocked_by(blocked)
  if not contains(list, blocker) then list[#list + 1] = blocker end
end
local changes = task_changes()
local touch = changes.touch
for _, e in ipairs(edges) do
  local blocked, blocker = e[1], e[2]
  local bb = decode_ids(R('HGET', tkey(P, blocked), 'blockedBy'))
  if not contains(bb, blocker) then
    bb[#bb + 1] = blocker
    R('HSET', tkey(P, blocked), 'blockedBy', encode_ids(bb))
    touch(blocked, 'blockedBy')
  end
  local bk = decode_ids(R('HGET', tkey(P, blocker), 'blocks'))
  if not contains(bk, blocked) then
    bk[#bk + 1] = blocked
    R('HSET', tkey(P, blocker), 'blocks', encode_ids(bk))
    touch(blocker, 'blocks')
  end
end
return done(base, changes.finish(P, env))
