-- releaseReader: gives a reader claim up (nothing happens when `token` does not hold it).
-- KEYS[1] base prefix
-- ARGV[1] member   ARGV[2] token
-- Returns ok { '1' | '0' released }; err TEAM_NOT_FOUND.
local base, member, token = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local ck = P .. 'c:' .. member
if R('HGET', ck, 'token') ~= token then return done(base, { '0' }) end
R('DEL', ck)
R('SREM', P .. 'claims', member)
hint('claims ' .. member)
return done(base, { '1' })
