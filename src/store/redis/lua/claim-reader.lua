-- claimReader: takes a member's reader claim (the one runtime that consumes its inbox) unless a
-- live one exists (last beat within its ttl). `evict` takes over a live claim only while it is
-- still held by exactly that holder (compare-and-set on host, pid, startedAt). A claim by the
-- very holder that has it (same host, pid, startedAt) renews it.
-- KEYS[1] base prefix
-- ARGV[1] member   ARGV[2] kind   ARGV[3] host   ARGV[4] pid   ARGV[5] startedAt   ARGV[6] token
-- ARGV[7] ttl ms   ARGV[8] now (epoch ms)   ARGV[9..11] evict host, pid, startedAt ('' = no evict)
-- Returns ok { claim fields... } (flat field/value list); err TEAM_NOT_FOUND; err MEMBER_NOT_FOUND;
-- err TEAMMATE_RUNNING { the live claim's fields... }.
local base, member = KEYS[1], ARGV[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
if R('EXISTS', mkey(P, member)) == 0 then return fail('MEMBER_NOT_FOUND') end
local ck = P .. 'c:' .. member
local cur = R('HMGET', ck, 'host', 'pid', 'startedAt', 'lastBeatAt', 'ttlMs')
if cur[1] and tonumber(cur[4]) + tonumber(cur[5]) > tonumber(ARGV[8]) then
  local same = cur[1] == ARGV[3] and cur[2] == ARGV[4] and cur[3] == ARGV[5]
  local evicted = ARGV[9] ~= '' and cur[1] == ARGV[9] and cur[2] == ARGV[10] and cur[3] == ARGV[11]
  if not same and not evicted then return fail('TEAMMATE_RUNNING', unpack(R('HGETALL', ck))) end
end
R('DEL', ck)
R('HSET', ck, 'member', member, 'kind', ARGV[2], 'host', ARGV[3], 'pid', ARGV[4], 'startedAt', ARGV[5], 'token', ARGV[6], 'lastBeatAt', ARGV[8], 'state', 'working', 'ttlMs', ARGV[7])
R('SADD', P .. 'claims', member)
hint('claims ' .. member)
return done(base, R('HGETALL', ck))
