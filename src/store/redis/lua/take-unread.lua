-- takeUnread: hands out unread entries not handed out under a live lease, exactly once: the
-- selection and the marking are this one step. A lease is live until its `until` (epoch ms);
-- after that its entries are unread for the next take (the reader is presumed dead).
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] member   ARGV[3] reader   ARGV[4] lease id (fresh)
-- ARGV[5] limit ('' = all)   ARGV[6] lease ms   ARGV[7] now (epoch ms)
-- Returns ok { lease id ('' when nothing was taken), until, remaining (unread, not handed out,
-- left by the limit), { entry JSON }... } with
-- events delivery delivered (each); a lease id already used replays that lease (no events);
-- err TEAM_NOT_FOUND.
local base, env, member, reader, lease = KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local limit = ARGV[5] ~= '' and tonumber(ARGV[5]) or nil
local now = tonumber(ARGV[7])
local untilMs = int(now + tonumber(ARGV[6]))
local takenk = ikey(P, 'taken', member)
-- A retry of a take whose reply was lost (same lease id): hand out that lease again, nothing new.
local prev = R('HMGET', P .. 'lease:' .. lease, 'member', 'until', 'seqs')
if prev[1] == member then
  local seqs = split(prev[3])
  return done(base, { lease, prev[2], '0', hmget_all(ikey(P, 'docs', member), seqs) })
end
local taken, remaining = {}, 0
for _, seq in ipairs(R('ZRANGE', ikey(P, 'unread', member), 0, -1)) do
  local holder = R('HGET', takenk, seq)
  local live = false
  if holder then
    local u = R('HGET', P .. 'lease:' .. holder, 'until')
    live = u and tonumber(u) > now
  end
  if live then
    -- handed out to another reader: neither taken nor remaining
  elseif limit and #taken >= limit then
    remaining = remaining + 1
  else
    taken[#taken + 1] = seq
  end
end
if #taken == 0 then return done(base, { '', untilMs, int(remaining), {} }) end
local docs = hmget_all(ikey(P, 'docs', member), taken)
local keys = hmget_all(ikey(P, 'keys', member), taken)
for i, seq in ipairs(taken) do
  R('HSET', takenk, seq, lease)
  emit(P, { 'h', env, 'kind', 'delivery', 'to', member, 'state', 'delivered', 'key', keys[i], 'lease', lease })
end
local lk = P .. 'lease:' .. lease
R('HSET', lk, 'member', member, 'reader', reader, 'until', untilMs, 'seqs', table.concat(taken, ','))
R('PEXPIRE', lk, int(tonumber(ARGV[6]) + 86400000))
return done(base, { lease, untilMs, int(remaining), docs })
