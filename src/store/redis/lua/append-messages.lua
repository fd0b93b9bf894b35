-- appendMessages: appends entries to members' inboxes, each once. Every recipient is checked
-- before anything is written. Within one inbox, timestamps never decrease in order and
-- (from, timestamp, text) stays unique: an entry whose instant is before the inbox's last one
-- gets the last one, and one that would repeat (from, instant, text) gets 1 ms more; only then
-- is its timestamp rewritten (ISO-8601 with ms), else the caller's text is kept byte for byte.
-- An idempotency key is taken with SET NX PX in this same step: a retry replays the first reply.
-- An entry whose msg_id is already in the live inbox (or earlier in this batch) is not appended
-- again: the stored entry is returned in its place, read as it is now, and no event is emitted
-- (as on the filesystem).
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] idempotency key ('' = none)   ARGV[3] key ttl (ms)
-- ARGV[4] n messages, then per message 9 values: to, JSON before the timestamp value,
-- the timestamp as a JSON string, JSON after it, the timestamp in epoch ms ('' = unparseable),
-- from, text, msg_id ('' = none), read ('1' | '0').
-- Returns ok { 'fresh', { { to, entry JSON, unread ('1' | '0') }... } } | ok { 'replayed', payload } with events
-- message (each); err TEAM_NOT_FOUND; err MEMBER_NOT_FOUND { to }.
local base, env, idem = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local n = tonumber(ARGV[4])
for i = 0, n - 1 do
  local to = ARGV[5 + i * 9]
  if R('EXISTS', mkey(P, to)) == 0 then return fail('MEMBER_NOT_FOUND', to) end
end
local idemKey = P .. 'idem:m:' .. idem
if idem ~= '' then
  local prev = R('GET', idemKey)
  if prev then return done(base, { 'replayed', prev }) end
end
local stored = {}
for i = 0, n - 1 do
  local o = 5 + i * 9
  local to, pre, tsq, post, msText = ARGV[o], ARGV[o + 1], ARGV[o + 2], ARGV[o + 3], ARGV[o + 4]
  local from, text, msgId, read = ARGV[o + 5], ARGV[o + 6], ARGV[o + 7], ARGV[o + 8]
  local there = msgId ~= '' and R('HGET', ikey(P, 'bykey', to), msgId) or nil
  if there then
    local unread = R('ZSCORE', ikey(P, 'unread', to), there) and '1' or '0'
    stored[#stored + 1] = { to, R('HGET', ikey(P, 'docs', to), there), unread }
  else
    local ts = cjson.decode(tsq)
    if msText ~= '' then
      local ms = tonumber(msText)
      local lastk, tailk = ikey(P, 'last', to), ikey(P, 'tail', to)
      local last = tonumber(R('HGET', lastk, 'ms') or '-1')
      local t = ms
      if t < last then t = last end
      local sig = redis.sha1hex(from .. '\0' .. text)
      if t == last and R('SISMEMBER', tailk, sig) == 1 then t = last + 1 end
      if t > last then
        R('DEL', tailk)
        R('HSET', lastk, 'ms', int(t))
      end
      R('SADD', tailk, sig)
      if t ~= ms then
        ts = iso(t)
        tsq = '"' .. ts .. '"'
      end
    end
    local doc = pre .. tsq .. post
    local seq = int(R('INCR', ikey(P, 'seq', to)))
    local key = msgId
    if key == '' then key = from .. '\0' .. ts .. '\0' .. text end
    R('HSET', ikey(P, 'docs', to), seq, doc)
    R('ZADD', ikey(P, 'order', to), seq, seq)
    if read ~= '1' then R('ZADD', ikey(P, 'unread', to), seq, seq) end
    R('HSET', ikey(P, 'keys', to), seq, key)
    R('HSET', ikey(P, 'bykey', to), key, seq)
    R('SADD', P .. 'inboxes', to)
    emit(P, { 'h', env, 'kind', 'message', 'to', to, 'entry', doc })
    hint('inbox ' .. to)
    stored[#stored + 1] = { to, doc, read == '1' and '0' or '1' }
  end
end
if idem ~= '' then
  R('SET', idemKey, cjson.encode(stored), 'PX', ARGV[3])
end
return done(base, { 'fresh', stored })
