-- claimReader: takes a member's reader claim (the one runtime that consumes its inbox) unless a
-- live one exists (last beat within its ttl). `evict` takes over a live claim only while it is
-- still held by exactly that holder (compare-and-set on host, pid, startedAt). A claim by the
-- very holder that has it (same host, pid, startedAt) is refused like any other while it lives
-- (two runtimes of one member in one process would both consume its inbox), and one after its ttl
-- gets a fresh token (what the lapsed holder's stale takes name is fenced) — as on files. Taking a
-- claim over (dead, or evicted) puts the previous token's leases of the member's inbox back at
-- once: nobody will acknowledge them.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] member   ARGV[3] kind   ARGV[4] host   ARGV[5] pid
-- ARGV[6] startedAt   ARGV[7] token (fresh)   ARGV[8] ttl ms   ARGV[9] unused (was the caller's now)
-- ARGV[10..12] evict host, pid, startedAt ('' = no evict)
-- Liveness is judged, and the claim stamped, by the server's clock (TIME), not the caller's; a
-- beat no earlier than the server's start (judged_beat, prelude).
-- Returns ok { claim fields... } (flat field/value list) with events delivery released (each
-- entry put back); err TEAM_NOT_FOUND; err MEMBER_NOT_FOUND { member }; err TEAMMATE_RUNNING
-- { the live claim's fields... }.
local base, env, member = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
if R('EXISTS', mkey(P, member)) == 0 then return fail('MEMBER_NOT_FOUND', member) end
local ck = P .. 'c:' .. member
local cur = R('HMGET', ck, 'host', 'pid', 'startedAt', 'lastBeatAt', 'ttlMs', 'token')
local now = store_now()
if cur[1] and judged_beat(cur[4], server_started()) + tonumber(cur[5]) > now then
  local evicted = ARGV[10] ~= '' and cur[1] == ARGV[10] and cur[2] == ARGV[11] and cur[3] == ARGV[12]
  if not evicted then return fail('TEAMMATE_RUNNING', unpack(R('HGETALL', ck))) end
end
local token = ARGV[7]
if cur[1] then
  -- The previous holder's leases (taken with its token as reader) go back to unread.
  release_reader_leases(P, env, member, cur[6])
end
local state = 'idle'
R('DEL', ck)
R('HSET', ck, 'member', member, 'kind', ARGV[3], 'host', ARGV[4], 'pid', ARGV[5], 'startedAt', ARGV[6], 'token', token, 'lastBeatAt', tostring(now), 'state', state, 'ttlMs', ARGV[8])
R('SADD', P .. 'claims', member)
hint('claims ' .. member)
return done(base, R('HGETALL', ck))
