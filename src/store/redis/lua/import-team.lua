-- importTeam: creates a whole team in a new generation, as the image holds it (store copy): the
-- config skeleton and members, member records, inboxes with their entries in order and read
-- state (timestamps as given: no monotonic rule is applied), archives, tasks keeping their ids,
-- the high-water mark, and the journal's events (each stored whole in field 'h', as
-- recordObserved does, with new stream ids). Nothing of the team's own is journalled and the
-- imported events are not returned; the hints cover the config, every inbox and the task board.
-- KEYS[1] base prefix   KEYS[2] "mr:teams"
-- ARGV[1] team name   ARGV[2] config skeleton JSON ("members": [])   ARGV[3] leadAgentId
-- ARGV[4] journal epoch (random id)   ARGV[5] high-water mark (decimal, fits int64)
-- then sections, each a count followed by its items:
--   members   4 values each: name, lowercased name, agentId, member JSON
--   records   2 values each: member name, member record JSON
--   inboxes   name, n entries, n archived, latest timestamp ms ('' = none), n tail SHA-1s,
--             the SHA-1s (from\0text of the entries at that instant), then 3 values per entry:
--             entry JSON, identity key (msg_id, else from\0timestamp\0text), read ('1' | '0'),
--             then the archived entries' JSON
--   tasks     8 values each: id, task JSON, status, has owner ('1' | '0'), owner, blocks JSON,
--             blockedBy JSON, internal ('1' | '0')
--   events    1 value each: event JSON
-- Returns ok { gen } with no events; err TEAM_EXISTS; err MEMBER_EXISTS { name }.
local base, team = KEYS[1], ARGV[1]
if R('EXISTS', base .. 'team') == 1 then return fail('TEAM_EXISTS') end
local a = 6
local function take()
  local v = ARGV[a]
  a = a + 1
  return v
end
-- Check the roster before the first write (Redis does not roll a script back).
local nMembers = tonumber(ARGV[a])
local seen = {}
for i = 0, nMembers - 1 do
  local lc, agent = ARGV[a + 1 + i * 4 + 1], ARGV[a + 1 + i * 4 + 2]
  if seen['n' .. lc] or seen['a' .. agent] then return fail('MEMBER_EXISTS', ARGV[a + 1 + i * 4]) end
  seen['n' .. lc], seen['a' .. agent] = true, true
end
local gen = int(R('INCR', base .. 'gens'))
local P = base .. 'g' .. gen .. ':'
R('HSET', base .. 'team', 'gen', gen, 'name', team)
R('SET', P .. 'config', ARGV[2])
R('HSET', P .. 'meta', 'lead', ARGV[3], 'epoch', ARGV[4], 'rosterVer', '0')
if ARGV[5] ~= '0' then R('SET', P .. 'hwm', ARGV[5]) end
R('SADD', KEYS[2], team)
take()
for _ = 1, nMembers do
  local name, lc, agent, doc = take(), take(), take(), take()
  R('RPUSH', P .. 'roster', name)
  R('HSET', mkey(P, name), 'doc', doc, 'ver', '0', 'lc', lc, 'agentId', agent)
  R('HSET', P .. 'lc', lc, name)
  R('HSET', P .. 'agents', agent, name)
end
for _ = 1, tonumber(take()) do
  local name, record = take(), take()
  R('HSET', P .. 'records', name, record)
end
for _ = 1, tonumber(take()) do
  local name, n, nArchived, lastMs, nTail = take(), tonumber(take()), tonumber(take()), take(), tonumber(take())
  R('SADD', P .. 'inboxes', name)
  if lastMs ~= '' then R('HSET', ikey(P, 'last', name), 'ms', lastMs) end
  for _ = 1, nTail do R('SADD', ikey(P, 'tail', name), take()) end
  for seq = 1, n do
    local doc, key, read = take(), take(), take()
    local s = int(seq)
    R('HSET', ikey(P, 'docs', name), s, doc)
    R('ZADD', ikey(P, 'order', name), seq, s)
    if read ~= '1' then R('ZADD', ikey(P, 'unread', name), seq, s) end
    R('HSET', ikey(P, 'keys', name), s, key)
    R('HSET', ikey(P, 'bykey', name), key, s)
  end
  if n > 0 then R('SET', ikey(P, 'seq', name), int(n)) end
  for _ = 1, nArchived do R('RPUSH', ikey(P, 'archive', name), take()) end
  hint('inbox ' .. name)
end
for _ = 1, tonumber(take()) do
  local id, doc, status, hasOwner, owner, blocks, blockedBy, internal, fence = take(), take(), take(), take(), take(), take(), take(), take(), take()
  local k = tkey(P, id)
  R('HSET', k, 'doc', doc, 'status', status, 'blocks', blocks, 'blockedBy', blockedBy, 'internal', internal, 'ver', '1', 'dver', '1')
  if hasOwner == '1' then R('HSET', k, 'owner', owner) end
  if fence ~= '' then R('HSET', k, 'fence', fence) end
  R('ZADD', P .. 'tasks', 0, pad(id))
end
for _ = 1, tonumber(take()) do
  R('XADD', P .. 'events', 'MAXLEN', '~', JOURNAL_MAXLEN, '*', 'h', take())
end
hint('config')
hint('task')
hint('events')
return done(base, { gen })
