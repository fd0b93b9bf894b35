-- updateMember (compare-and-set): replaces a member's JSON with the caller's patched copy, if
-- the member's version is still the one the caller read.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] name   ARGV[3] expected version   ARGV[4] new member JSON
-- ARGV[5] new agentId   ARGV[6] changed keys (comma-separated; 'isActive' alone leaves the view version)
-- Returns ok { member JSON } with event member updated; retry; err TEAM_NOT_FOUND; err
-- MEMBER_NOT_FOUND; err MEMBER_EXISTS { name } (the new agentId belongs to another member).
local base, env, name = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local k = mkey(P, name)
local cur = R('HMGET', k, 'ver', 'agentId')
if not cur[1] then return fail('MEMBER_NOT_FOUND') end
if cur[1] ~= ARGV[3] then return { 'retry' } end
local agent = ARGV[5]
if agent ~= cur[2] then
  local other = R('HGET', P .. 'agents', agent)
  if other and other ~= name then return fail('MEMBER_EXISTS', other) end
  R('HDEL', P .. 'agents', cur[2])
  R('HSET', P .. 'agents', agent, name)
  if R('HGET', P .. 'meta', 'lead') == cur[2] then R('HSET', P .. 'meta', 'lead', agent) end
end
R('HSET', k, 'doc', ARGV[4], 'agentId', agent)
R('HINCRBY', k, 'ver', 1)
-- The view version (prelude `view_stamp`) moves with every change but `isActive` alone: the liveness
-- flag each turn writes twice is judged by no rule, and kept views (a teammate's guard reads, a
-- sender's view) would otherwise be read again after every turn of every member.
if ARGV[6] ~= 'isActive' then R('HINCRBY', k, 'vver', 1) end
emit(P, { 'h', env, 'kind', 'member', 'action', 'updated', 'name', name, 'agentId', agent, 'changed', ARGV[6] })
hint('config')
return done(base, { ARGV[4] })
