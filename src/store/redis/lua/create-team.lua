-- createTeam: creates a team with its config skeleton and members, in a new generation.
-- KEYS[1] base prefix "mr:{<team>}:"   KEYS[2] "mr:teams" (set of team names)
-- ARGV[1] team name   ARGV[2] event envelope JSON   ARGV[3] config skeleton JSON ("members": [])
-- ARGV[4] leadAgentId   ARGV[5] journal epoch (random id)   ARGV[6] n members,
-- then per member 4 values: name, lowercased name, agentId, member JSON.
-- Returns ok { gen } with events team created, member joined (each); err TEAM_EXISTS; err MEMBER_EXISTS { name }.
local base, team, env = KEYS[1], ARGV[1], ARGV[2]
if R('EXISTS', base .. 'team') == 1 then return fail('TEAM_EXISTS') end
local n = tonumber(ARGV[6])
local seen = {}
for i = 0, n - 1 do
  local lc, agent = ARGV[7 + i * 4 + 1], ARGV[7 + i * 4 + 2]
  if seen['n' .. lc] or seen['a' .. agent] then return fail('MEMBER_EXISTS', ARGV[7 + i * 4]) end
  seen['n' .. lc], seen['a' .. agent] = true, true
end
local gen = int(R('INCR', base .. 'gens'))
R('HSET', base .. 'team', 'gen', gen, 'name', team)
local P = base .. 'g' .. gen .. ':'
R('SET', P .. 'config', ARGV[3])
R('HSET', P .. 'meta', 'lead', ARGV[4], 'epoch', ARGV[5], 'rosterVer', '0')
R('SADD', KEYS[2], team)
emit(P, { 'h', env, 'kind', 'team', 'action', 'created' })
for i = 0, n - 1 do
  local o = 7 + i * 4
  local name, lc, agent, doc = ARGV[o], ARGV[o + 1], ARGV[o + 2], ARGV[o + 3]
  R('RPUSH', P .. 'roster', name)
  R('HSET', mkey(P, name), 'doc', doc, 'ver', '0', 'lc', lc, 'agentId', agent)
  R('HSET', P .. 'lc', lc, name)
  R('HSET', P .. 'agents', agent, name)
  emit(P, { 'h', env, 'kind', 'member', 'action', 'joined', 'name', name, 'agentId', agent })
end
hint('config')
return done(base, { gen })
