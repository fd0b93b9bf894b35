-- takeUnread: hands out unread entries not handed out under a live lease, exactly once: the
-- selection and the marking are this one step. A lease is live until its `until` (epoch ms);
-- after that its entries are unread for the next take (the reader is presumed dead).
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] member   ARGV[3] reader   ARGV[4] lease id (fresh)
-- ARGV[5] limit ('' = all)   ARGV[6] lease ms   ARGV[7] now (epoch ms)
-- ARGV[8] '1': acknowledge in the same step (the entries turn read, no lease is kept)
-- ARGV[9] reader claim token the taker must hold ('' = unfenced)
-- Returns ok { lease id ('' when nothing was taken), until, remaining (unread, not handed out,
-- left by the limit), { entry JSON }..., { hand-out count }..., view stamp (prelude `view_stamp`,
-- as of this step: a reader's guard whose reads carry the same stamp need not read again) } with
-- events delivery delivered (each), and delivery read (each) when acknowledged; a lease id
-- already used replays that lease (no events); err TEAM_NOT_FOUND; err READER_FENCED { the
-- current claim's fields }. The hand-out count of an entry (hash i:handed, by seq) grows by one
-- per take that hands it out; it is 1 the first time, more for a redelivery.
local base, env, member, reader, lease = KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local limit = ARGV[5] ~= '' and tonumber(ARGV[5]) or nil
local now = tonumber(ARGV[7])
local untilMs = int(now + tonumber(ARGV[6]))
local takenk = ikey(P, 'taken', member)
local ack = ARGV[8] == '1'
local fenced = fence(P, member, ARGV[9])
if fenced then return fenced end
local handedk = ikey(P, 'handed', member)
-- A retry of a take whose reply was lost (same lease id): hand out that lease again, nothing new.
local prev = R('HMGET', P .. 'lease:' .. lease, 'member', 'until', 'seqs')
if prev[1] == member then
  local seqs = split(prev[3])
  local counts = {}
  for i, seq in ipairs(seqs) do counts[i] = R('HGET', handedk, seq) or '1' end
  return done(base, { lease, prev[2], '0', hmget_all(ikey(P, 'docs', member), seqs), counts, view_stamp(P) })
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
if #taken == 0 then return done(base, { '', untilMs, int(remaining), {}, {}, view_stamp(P) }) end
local docs = hmget_all(ikey(P, 'docs', member), taken)
local keys = hmget_all(ikey(P, 'keys', member), taken)
local counts = {}
for i, seq in ipairs(taken) do
  counts[i] = int(R('HINCRBY', handedk, seq, 1))
  emit(P, { 'h', env, 'kind', 'delivery', 'to', member, 'state', 'delivered', 'key', keys[i], 'lease', lease })
  if ack then
    R('ZREM', ikey(P, 'unread', member), seq)
    R('HDEL', takenk, seq)
    R('HDEL', handedk, seq)
    emit(P, { 'h', env, 'kind', 'delivery', 'to', member, 'state', 'read', 'key', keys[i], 'lease', lease })
  else
    R('HSET', takenk, seq, lease)
  end
end
local lk = P .. 'lease:' .. lease
-- An acknowledged take keeps its record only to answer a retry whose reply was lost (it holds
-- nothing: its entries are read), for as long as the connection's retry can come.
R('HSET', lk, 'member', member, 'reader', reader, 'until', untilMs, 'seqs', table.concat(taken, ','), 'acked', ack and '1' or '0')
R('PEXPIRE', lk, ack and '600000' or int(tonumber(ARGV[6]) + 86400000))
if ack then hint('inbox ' .. member) end
return done(base, { lease, untilMs, int(remaining), docs, counts, view_stamp(P) })
