-- deleteTeam: moves the team aside by retiring its generation (no key is copied or renamed:
-- the generation's keys stay as they are, restorable). The `team deleted` event is the last
-- of that generation's journal.
-- KEYS[1] base prefix   KEYS[2] "mr:teams"   KEYS[3] "mr:deleted" (sorted set, score deletedAt)
-- ARGV[1] team name   ARGV[2] event envelope JSON   ARGV[3] now (epoch ms)   ARGV[4] encoded team name
-- Returns ok { id, deletedAt, location }; err TEAM_NOT_FOUND.
local base, team, env = KEYS[1], ARGV[1], ARGV[2]
local gen = R('HGET', base .. 'team', 'gen')
if not gen then return fail('TEAM_NOT_FOUND') end
local P = base .. 'g' .. gen .. ':'
emit(P, { 'h', env, 'kind', 'team', 'action', 'deleted' })
local id = ARGV[4] .. '.g' .. gen
R('DEL', base .. 'team')
R('SREM', KEYS[2], team)
R('ZADD', KEYS[3], ARGV[3], id)
R('HSET', KEYS[3] .. ':' .. id, 'team', team, 'gen', gen, 'deletedAt', ARGV[3], 'location', P .. '*')
hint('config')
hint('task')
return done(base, { id, ARGV[3], P .. '*' })
