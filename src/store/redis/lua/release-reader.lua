-- releaseReader: gives a reader claim up (nothing happens when `token` does not hold it). The
-- leases taken with that token as reader go back to unread at once, as on a takeover
-- (claim-reader.lua): nobody will acknowledge them, and the member's next reader gets them now,
-- not when they expire.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] member   ARGV[3] token
-- Returns ok { '1' | '0' released } with events delivery released (each entry put back); err TEAM_NOT_FOUND.
local base, env, member, token = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local ck = P .. 'c:' .. member
if R('HGET', ck, 'token') ~= token then return done(base, { '0' }) end
release_reader_leases(P, env, member, token)
R('DEL', ck)
R('SREM', P .. 'claims', member)
hint('claims ' .. member)
return done(base, { '1' })
