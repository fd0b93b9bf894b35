-- restoreTeam: makes a deleted generation current again.
-- KEYS[1] base prefix   KEYS[2] "mr:teams"   KEYS[3] "mr:deleted"
-- ARGV[1] deleted id   ARGV[2] team name (from the record, checked again here)   ARGV[3] event envelope JSON
-- Returns ok { gen }; err TEAM_NOT_FOUND (no such id); err TEAM_EXISTS.
local base, id, team, env = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local rec = R('HMGET', KEYS[3] .. ':' .. id, 'team', 'gen')
if not rec[1] or rec[1] ~= team then return fail('TEAM_NOT_FOUND') end
if R('EXISTS', base .. 'team') == 1 then return fail('TEAM_EXISTS') end
local gen = rec[2]
R('HSET', base .. 'team', 'gen', gen, 'name', team)
R('SADD', KEYS[2], team)
R('ZREM', KEYS[3], id)
R('DEL', KEYS[3] .. ':' .. id)
local P = base .. 'g' .. gen .. ':'
emit(P, { 'h', env, 'kind', 'team', 'action', 'restored' })
hint('config')
hint('task')
return done(base, { gen })
