-- appendMessages: appends entries to members' inboxes, each once. Every recipient is checked
-- before anything is written. Within one inbox, timestamps never decrease in order and
-- (from, timestamp, text) stays unique: an entry whose instant is before the inbox's last one
-- gets the last one, and one that would repeat (from, instant, text) gets 1 ms more; only then
-- is its timestamp rewritten (ISO-8601 with ms), else the caller's text is kept byte for byte.
-- An idempotency key is taken with SET PX in this same step: a retry replays the first reply. The
-- reply's rows are recorded with cmsgpack (a copy of the strings; cjson escaped every quote of every
-- entry, on every append, for a record that is read only by a retry) and turned back into the JSON
-- the client reads when a retry or readAppended reads them (prelude `idem_json`).
-- An entry whose msg_id is already in the live inbox (or earlier in this batch) is not appended
-- again: the stored entry is returned in its place, read as it is now, and no event is emitted
-- (as on the filesystem).
-- Each recipient's inbox state (last instant, tail signatures) is read once, its append counter
-- is moved once by the number of entries added (INCRBY, whose answer numbers them), and its
-- writes go out as one command per part (HSET/ZADD of many fields), so a call carrying many
-- entries (the combined appends of src/store/redis/append-batcher.ts) costs the server little more
-- per entry than its journal entry; the result is the same as appending the entries one by one.
-- The hottest transition (issue 24 item 2), so it spends no call it can prove needless: the
-- store's own key on its first try (ARGV[4] = '1') is new, so it is not looked up; the inbox set
-- is added to only by an inbox's first append (an inbox with an append counter is in it: only
-- set-inbox-aside.lua removes one, with its counter). Its message events go to the journal but
-- not into the reply: the caller has the envelope and each entry, and builds the same events from
-- the fourth value of each stored row (src/store/redis/inboxes.ts).
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] idempotency key ('' = none)   ARGV[3] key ttl (ms)
-- ARGV[4] '1' when the key is new (the store's own, first try: not looked up), else 'r' (the retry of
-- the store's own key) or '' (the caller's key): looked up before the recipients are checked, since a
-- first try may have run and a recipient been removed since (the retry answers with the first reply)
-- ARGV[5] n messages   ARGV[6] the view stamp the sender read its view under ('' = no check):
-- compared with prelude `view_stamp` after the key lookups (a retry whose first try ran replays it:
-- that try ran under the view) and before anything is written; when they differ, err VIEW_MOVED
-- and nothing is written (a member removed, the policy or signing changed since the sender read).
-- Then per message 9 values: to, JSON before the timestamp value,
-- the timestamp as a JSON string, JSON after it, the timestamp in epoch ms ('' = unparseable),
-- from, text, msg_id ('' = none), read ('1' | '0').
-- Returns ok { 'fresh', { { to, entry JSON, unread ('1' | '0'), journalled ('1' | '0') }... } }
-- | ok { 'replayed', payload } with no events in the reply (journalled: one message event per
-- row with '1', envelope ARGV[1]); err TEAM_NOT_FOUND; err MEMBER_NOT_FOUND { to }; err VIEW_MOVED.
local base, env, idem = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local n = tonumber(ARGV[5])
local idemKey = P .. 'idem:m:' .. idem
if idem ~= '' and ARGV[4] ~= '1' then
  local prev = R('GET', idemKey)
  if prev then return done(base, { 'replayed', idem_json(prev) }) end
end
-- Per recipient: its inbox state as read once, and the entries this call adds to it.
local boxes, order, seen = {}, {}, {}
for i = 0, n - 1 do
  local to = ARGV[7 + i * 9]
  if not seen[to] then
    if R('EXISTS', mkey(P, to)) == 0 then return fail('MEMBER_NOT_FOUND', to) end
    seen[to] = true
    order[#order + 1] = to
  end
end
if ARGV[6] ~= '' and view_stamp(P) ~= ARGV[6] then return fail('VIEW_MOVED') end

local function box(to)
  local b = boxes[to]
  if b then return b end
  -- new: the entries this call adds ({ doc, key, unread }), numbered once they are known (one INCRBY).
  b = { new = {}, last = nil, reset = false, sigs = {}, newSigs = {}, mine = {} }
  boxes[to] = b
  return b
end

-- The largest look a recipient's channel carries: more entries, or more bytes of them, and the
-- recipient takes before its request, as without a look.
local LOOK_MAX_ENTRIES, LOOK_MAX_BYTES = 16, 65536

-- Publishes on `to`'s own channel (base .. 'hints:' .. to) what its take would hand out right after
-- this step, when that is exactly the `unread` entries this call added (no other entry of the inbox
-- is unread, under a lease or not) and the send carried its view stamp (ARGV[6]): the stamp and
-- their documents, one per line. Else an empty message: no look, and the subscriber drops the one
-- it kept from an earlier append (it no longer shows what a take would hand out). Only that
-- member's subscription gets the text; a reader acts on it only once its take handed out the same
-- entries under the same stamp (src/runtime/turn.ts commitLooked). Best effort: a user granted
-- before these channels existed gets NOPERM (pcall).
local function look(P, base, to, new, unread)
  local lines, bytes = { ARGV[6] }, 0
  if ARGV[6] == '' or unread > LOOK_MAX_ENTRIES or R('ZCARD', ikey(P, 'unread', to)) ~= unread then
    lines = { '' }
  else
    for _, e in ipairs(new) do
      if e[3] == '1' then
        bytes = bytes + #e[1]
        if bytes > LOOK_MAX_BYTES then
          lines = { '' }
          break
        end
        lines[#lines + 1] = e[1]
      end
    end
  end
  redis.pcall('PUBLISH', base .. 'hints:' .. to, table.concat(lines, '\n'))
end

-- Writes `args` (field/value or score/member pairs) with `cmd key …`, in chunks within unpack's limit.
local function write_pairs(cmd, key, args)
  for i = 1, #args, 400 do
    R(cmd, key, unpack(args, i, math.min(i + 399, #args)))
  end
end

local stored, journalled, journal = {}, 0, P .. 'events'
for i = 0, n - 1 do
  local o = 7 + i * 9
  local to, pre, tsq, post, msText = ARGV[o], ARGV[o + 1], ARGV[o + 2], ARGV[o + 3], ARGV[o + 4]
  local from, text, msgId, read = ARGV[o + 5], ARGV[o + 6], ARGV[o + 7], ARGV[o + 8]
  local b = box(to)
  local mine = msgId ~= '' and b.mine[msgId] or nil
  local there = nil
  if msgId ~= '' and not mine then there = R('HGET', ikey(P, 'bykey', to), msgId) end
  if mine then
    stored[#stored + 1] = { to, mine[1], mine[3], '0' }
  elseif there then
    local unread = R('ZSCORE', ikey(P, 'unread', to), there) and '1' or '0'
    stored[#stored + 1] = { to, R('HGET', ikey(P, 'docs', to), there), unread, '0' }
  else
    -- The timestamp as a Lua string: the JSON string's inside, unless it holds an escape (a
    -- checked timestamp never does; cjson then decodes it, as before).
    local ts = string.find(tsq, '\\', 1, true) and cjson.decode(tsq) or string.sub(tsq, 2, -2)
    if msText ~= '' then
      local ms = tonumber(msText)
      if b.last == nil then b.last = tonumber(R('HGET', ikey(P, 'last', to), 'ms') or '-1') end
      local last = b.last
      local t = ms
      if t < last then t = last end
      local sig = redis.sha1hex(from .. '\0' .. text)
      if t == last and (b.sigs[sig] or (not b.reset and R('SISMEMBER', ikey(P, 'tail', to), sig) == 1)) then t = last + 1 end
      if t > last then
        b.reset, b.sigs, b.newSigs, b.last = true, {}, {}, t
      end
      if not b.sigs[sig] then
        b.sigs[sig] = true
        b.newSigs[#b.newSigs + 1] = sig
      end
      if t ~= ms then
        ts = iso(t)
        tsq = '"' .. ts .. '"'
      end
    end
    local doc = pre .. tsq .. post
    local key = msgId
    if key == '' then key = from .. '\0' .. ts .. '\0' .. text end
    local unread = read == '1' and '0' or '1'
    local added = { doc, key, unread }
    b.new[#b.new + 1] = added
    if msgId ~= '' then b.mine[msgId] = added end
    R('XADD', journal, 'MAXLEN', '~', JOURNAL_MAXLEN, '*', 'h', env, 'kind', 'message', 'to', to, 'entry', doc)
    journalled = journalled + 1
    stored[#stored + 1] = { to, doc, unread, '1' }
  end
end

for _, to in ipairs(order) do
  local b = boxes[to]
  local added = #b.new
  if added > 0 then
    -- The append counter after this call; its entries are numbered up to it, in order.
    local top = R('INCRBY', ikey(P, 'seq', to), added)
    local docs, orderArgs, unreadArgs, keysArgs, bykeyArgs = {}, {}, {}, {}, {}
    for j, e in ipairs(b.new) do
      local seq = int(top - added + j)
      docs[#docs + 1] = seq
      docs[#docs + 1] = e[1]
      orderArgs[#orderArgs + 1] = seq
      orderArgs[#orderArgs + 1] = seq
      if e[3] == '1' then
        unreadArgs[#unreadArgs + 1] = seq
        unreadArgs[#unreadArgs + 1] = seq
      end
      keysArgs[#keysArgs + 1] = seq
      keysArgs[#keysArgs + 1] = e[2]
      bykeyArgs[#bykeyArgs + 1] = e[2]
      bykeyArgs[#bykeyArgs + 1] = seq
    end
    write_pairs('HSET', ikey(P, 'docs', to), docs)
    write_pairs('ZADD', ikey(P, 'order', to), orderArgs)
    if #unreadArgs > 0 then write_pairs('ZADD', ikey(P, 'unread', to), unreadArgs) end
    write_pairs('HSET', ikey(P, 'keys', to), keysArgs)
    write_pairs('HSET', ikey(P, 'bykey', to), bykeyArgs)
    if top == added then R('SADD', P .. 'inboxes', to) end
    -- The recipient's look (its own channel, before the team's hint): what its take would hand out
    -- now — these entries, when they are all of its unread ones — and the view they were sent under;
    -- or none, which drops an earlier one.
    if #unreadArgs > 0 then look(P, base, to, b.new, #unreadArgs / 2) end
    hint('inbox ' .. to)
  end
  if b.reset then
    R('DEL', ikey(P, 'tail', to))
    R('HSET', ikey(P, 'last', to), 'ms', int(b.last))
  end
  if #b.newSigs > 0 then write_pairs('SADD', ikey(P, 'tail', to), b.newSigs) end
end
if idem ~= '' then
  R('SET', idemKey, cmsgpack.pack(stored), 'PX', ARGV[3])
end
if journalled > 0 then hint('events') end
return done(base, { 'fresh', stored })
