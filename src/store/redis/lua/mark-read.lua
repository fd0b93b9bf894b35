-- markRead: marks entries read by identity (msg_id, else from\0timestamp\0text).
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] member   ARGV[3] n keys, then the keys
-- Returns ok { how many changed } with events delivery read (each); err TEAM_NOT_FOUND.
local base, env, member = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local count = 0
for i = 1, tonumber(ARGV[3]) do
  local key = ARGV[3 + i]
  local seq = R('HGET', ikey(P, 'bykey', member), key)
  if seq and R('ZREM', ikey(P, 'unread', member), seq) == 1 then
    count = count + 1
    R('HDEL', ikey(P, 'taken', member), seq)
    emit(P, { 'h', env, 'kind', 'delivery', 'to', member, 'state', 'read', 'key', key })
  end
end
if count > 0 then hint('inbox ' .. member) end
return done(base, { int(count) })
