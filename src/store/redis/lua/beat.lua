-- beat: renews a reader claim and records its state, if `token` still holds it.
-- KEYS[1] base prefix
-- ARGV[1] member   ARGV[2] token   ARGV[3] state ('working' | 'idle')
-- The beat is stamped with the server's clock (TIME) when it lands, not the caller's: a beat held
-- up by a stall counts from when it landed, and callers' clocks may differ.
-- Returns ok { claim fields... }; err TEAM_NOT_FOUND; err TEAMMATE_RUNNING { current claim fields... } (taken over, or gone).
local base, member, token = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local ck = P .. 'c:' .. member
local cur = R('HMGET', ck, 'token', 'state')
if cur[1] ~= token then return fail('TEAMMATE_RUNNING', unpack(R('HGETALL', ck))) end
R('HSET', ck, 'lastBeatAt', tostring(store_now()), 'state', ARGV[3])
if cur[2] ~= ARGV[3] then hint('claims ' .. member) end
return done(base, R('HGETALL', ck))
