-- release: puts a lease's entries back to unread at once (the model call that carried them
-- failed) and ends the lease.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] member   ARGV[3] lease id
-- Returns ok { how many were released } with events delivery released (each); err TEAM_NOT_FOUND.
local base, env, member, lease = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local lk = P .. 'lease:' .. lease
local rec = R('HMGET', lk, 'member', 'seqs')
if not rec[1] or rec[1] ~= member then return done(base, { '0' }) end
local count = 0
for _, seq in ipairs(split(rec[2])) do
  if R('HGET', ikey(P, 'taken', member), seq) == lease then
    R('HDEL', ikey(P, 'taken', member), seq)
    if R('ZSCORE', ikey(P, 'unread', member), seq) then
      count = count + 1
      emit(P, { 'h', env, 'kind', 'delivery', 'to', member, 'state', 'released', 'key', R('HGET', ikey(P, 'keys', member), seq) or '', 'lease', lease })
    end
  end
end
R('DEL', lk)
return done(base, { int(count) })
