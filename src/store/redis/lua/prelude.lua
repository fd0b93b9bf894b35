-- prelude.lua: helpers prepended to every mailroom script when it is loaded
-- (src/store/redis/scripts.ts). The data model is in docs/format.md "Redis store".
--
-- Conventions of every script:
--   KEYS[1]  the team's base prefix "mr:{<team>}:" (the team name percent-encoded). Keys of the
--            team's current generation are built from it, "mr:{<team>}:g<gen>:<part>", as BullMQ
--            builds job keys from its queue prefix; every one shares the {<team>} hash tag.
--   Reply    { "ok", value, events } | { "err", code, details } | { "retry" } (a compare-and-set
--            whose version moved: the caller recomputes and tries again). Every leaf is a string,
--            or false for "absent": a Lua number never reaches the client (Redis Lua numbers are
--            doubles; ids and counters are read back as the exact strings Redis keeps).
--   A script checks everything before its first write: Redis does not roll a script back.
--   Documents (config skeleton, members, inbox entries, tasks) are opaque JSON strings built by
--   the TypeScript side; no script decodes and re-encodes one (cjson reorders keys, writes empty
--   arrays as {} and numbers with 14 digits). Scripts decode only their own id lists.
local R = redis.call
-- The journal stream is capped near this many entries (XADD MAXLEN ~).
local JOURNAL_MAXLEN = '100000'
local EVENTS, HINTS = {}, {}
-- The parts of one inbox: key P .. 'i:' .. part .. ':' .. member.
local INBOX_PARTS = { 'seq', 'docs', 'order', 'unread', 'keys', 'bykey', 'taken', 'last', 'tail', 'archive', 'handed' }

local function fail(code, ...)
  return { 'err', code, { ... } }
end

-- Refuses (READER_FENCED, with the current claim's fields) a step whose reader claim token `claim`
-- ('' = unfenced) no longer holds `member`'s claim; nil when it may go on.
local function fence(P, member, claim)
  if claim == nil or claim == '' then return nil end
  local ck = P .. 'c:' .. member
  if R('HGET', ck, 'token') == claim then return nil end
  return { 'err', 'READER_FENCED', R('HGETALL', ck) }
end

local function int(x)
  return string.format('%d', x)
end

-- The current generation's prefix of the team, or nil when the team does not exist.
local function gen_prefix(base)
  local gen = R('HGET', base .. 'team', 'gen')
  if not gen then return nil end
  return base .. 'g' .. gen .. ':'
end

local function team_missing(base)
  return fail('TEAM_NOT_FOUND')
end

-- Appends one event to the team's journal stream; `fields` is a flat field/value list whose
-- 'h' is the envelope JSON built by the caller (v, team, at, source, actor).
local function emit(P, fields)
  local id = R('XADD', P .. 'events', 'MAXLEN', '~', JOURNAL_MAXLEN, '*', unpack(fields))
  local e = { id }
  for i = 1, #fields do e[i + 1] = fields[i] end
  EVENTS[#EVENTS + 1] = e
end

local function hint(line)
  HINTS[#HINTS + 1] = line
end

-- Publishes the hints (one message, lines) and builds the ok reply.
local function done(base, value)
  if #EVENTS > 0 then hint('events') end
  if #HINTS > 0 then R('PUBLISH', base .. 'hints', table.concat(HINTS, '\n')) end
  return { 'ok', value, EVENTS }
end

local function ikey(P, part, member)
  return P .. 'i:' .. part .. ':' .. member
end

-- Gives back every hand-out lease `member`'s reader `token` holds: the entries go back to unread at
-- once (a 'delivery released' event for each still unread), for a clean release (release-reader.lua)
-- and a takeover (claim-reader.lua) alike.
local function release_reader_leases(P, env, member, token)
  local takenk = ikey(P, 'taken', member)
  local flat = R('HGETALL', takenk)
  for i = 1, #flat, 2 do
    local seq, lease = flat[i], flat[i + 1]
    local lk = P .. 'lease:' .. lease
    if R('HGET', lk, 'reader') == token then
      R('HDEL', takenk, seq)
      R('DEL', lk)
      if R('ZSCORE', ikey(P, 'unread', member), seq) then
        emit(P, { 'h', env, 'kind', 'delivery', 'to', member, 'state', 'released', 'key', R('HGET', ikey(P, 'keys', member), seq) or '', 'lease', lease })
      end
    end
  end
end

-- The JSON of an append's recorded reply rows (`idem:m:<key>`): append-messages.lua records them
-- with cmsgpack; a record written by a build before that is JSON already (it starts with '[', which
-- no MessagePack array does).
local function idem_json(recorded)
  if string.sub(recorded, 1, 1) == '[' then return recorded end
  return cjson.encode(cmsgpack.unpack(recorded))
end

local function mkey(P, name)
  return P .. 'm:' .. name
end

-- Id lists (blocks, blockedBy) are JSON arrays of strings: decoded here, written by encode_ids.
local function decode_ids(json)
  if not json or json == '' then return {} end
  return cjson.decode(json)
end

local function encode_ids(list)
  if #list == 0 then return '[]' end
  local parts = {}
  for i = 1, #list do parts[i] = cjson.encode(list[i]) end
  return '[' .. table.concat(parts, ',') .. ']'
end

local function contains(list, value)
  for i = 1, #list do if list[i] == value then return true end end
  return false
end

local function without(list, value)
  local out = {}
  for i = 1, #list do if list[i] ~= value then out[#out + 1] = list[i] end end
  return out
end

local function split(csv)
  local out = {}
  if not csv or csv == '' then return out end
  for part in string.gmatch(csv, '[^,]+') do out[#out + 1] = part end
  return out
end

-- Tasks ----------------------------------------------------------------------------------------
-- Ids are kept as the exact decimal strings; the 'tasks' sorted set orders them zero-padded to
-- 20 digits (INCR's int64 has 19), lexicographically.
local function pad(id)
  return string.rep('0', 20 - #id) .. id
end

local function unpad(p)
  return (string.gsub(p, '^0+', ''))
end

local function tkey(P, id)
  return P .. 't:' .. id
end

local function task_ids(P)
  local out = {}
  for i, p in ipairs(R('ZRANGE', P .. 'tasks', 0, -1)) do out[i] = unpad(p) end
  return out
end

-- { id, doc, status, owner|false, blocks, blockedBy } or nil.
local function task_tuple(P, id)
  local v = R('HMGET', tkey(P, id), 'doc', 'status', 'owner', 'blocks', 'blockedBy', 'fence')
  if not v[1] then return nil end
  return { id, v[1], v[2], v[3], v[4], v[5], v[6] }
end

-- The largest token (2^53 - 1, JavaScript's largest safe integer): Lua's numbers are doubles too.
local MAX_FENCE = 9007199254740991

-- The task's fencing token (src/domain/task-fence.ts fenceOf): 0 when it has none or a value that
-- is not a whole number in 0..MAX_FENCE (a hash field set by hand).
local function fence_of(P, id)
  local v = tonumber(R('HGET', tkey(P, id), 'fence') or '0')
  if not v or v < 0 or v > MAX_FENCE or v ~= math.floor(v) then return 0 end
  return v
end

-- A token as the decimal text the writers send (tostring prints only 14 significant digits).
local function fence_text(v)
  return string.format('%d', v)
end

-- Issues the task's next fencing token (a claim): max(previous + 1, the server's clock in epoch
-- ms), src/domain/task-fence.ts nextFence, so a token grows past every token issued before even
-- when a restart from an old snapshot lost them. Returns it.
local function issue_fence(P, id)
  local t = R('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local current = fence_of(P, id)
  local next = current >= MAX_FENCE and now or math.max(current + 1, now)
  R('HSET', tkey(P, id), 'fence', fence_text(next))
  return next
end

local function unowned(owner)
  return (not owner) or owner == ''
end

-- Blockers in `blockedBy` that name an existing task that is not completed (domain/task-board openBlockers).
local function open_blockers(P, blocked_by_json)
  local open = {}
  for _, b in ipairs(decode_ids(blocked_by_json)) do
    local st = R('HGET', tkey(P, b), 'status')
    if st and st ~= 'completed' then open[#open + 1] = b end
  end
  return open
end

local function task_event(P, env, action, tuple, changed)
  local f = { 'h', env, 'kind', 'task', 'action', action, 'task', tuple[2], 'st', tuple[3], 'bk', tuple[5], 'bb', tuple[6] }
  if tuple[4] then
    f[#f + 1] = 'ow'
    f[#f + 1] = tuple[4]
  end
  if tuple[7] then
    f[#f + 1] = 'fe'
    f[#f + 1] = tuple[7]
  end
  if changed and changed ~= '' then
    f[#f + 1] = 'changed'
    f[#f + 1] = changed
  end
  emit(P, f)
  hint('task ' .. tuple[1])
end

local function bump_task(P, id)
  R('HINCRBY', tkey(P, id), 'ver', 1)
end

-- Puts `owner`'s tasks whose status is in `statuses` (a set table; nil: every status but
-- completed) back to pending with no owner. Returns the changed tuples.
local function unassign(P, env, owner, statuses)
  local changed = {}
  for _, id in ipairs(task_ids(P)) do
    local k = tkey(P, id)
    local v = R('HMGET', k, 'owner', 'status')
    local match = v[1] == owner and ((statuses and statuses[v[2]]) or (not statuses and v[2] ~= 'completed'))
    if match then
      R('HDEL', k, 'owner')
      R('HSET', k, 'status', 'pending')
      bump_task(P, id)
      local t = task_tuple(P, id)
      task_event(P, env, 'updated', t, v[2] == 'pending' and 'owner' or 'owner,status')
      changed[#changed + 1] = t
    end
  end
  return changed
end

-- Time -----------------------------------------------------------------------------------------
-- The server's clock (TIME) in epoch ms: liveness is judged by the store's time, never a caller's
-- (issue 21 item 3, docs/runtime.md "Dead members").
local function store_now()
  local t = R('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- When this server process started (epoch ms by its clock; INFO server `uptime_in_seconds`, so up
-- to 1 s later than the real start). A restart loses the beats that landed since the data it loaded
-- was written (a snapshot of a server without the AOF), so a claim's
-- beat is judged as no older than the start: every live member beats again within a beat or two.
local function server_started()
  local up = string.match(R('INFO', 'server'), 'uptime_in_seconds:(%d+)')
  return store_now() - (tonumber(up) or 0) * 1000
end

-- A claim's last beat for judging liveness: its stored `lastBeatAt`, or `started` (server_started())
-- when later.
local function judged_beat(last_beat_at, started)
  local beat = tonumber(last_beat_at) or 0
  if started > beat then return started end
  return beat
end

-- ISO-8601 UTC with milliseconds of an epoch-ms instant (days to civil date: H. Hinnant's algorithm).
local function iso(ms)
  local s = math.floor(ms / 1000)
  local msr = ms - s * 1000
  local days = math.floor(s / 86400)
  local sod = s - days * 86400
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local y = yoe + era * 400
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local d = doy - math.floor((153 * mp + 2) / 5) + 1
  local m = mp < 10 and mp + 3 or mp - 9
  if m <= 2 then y = y + 1 end
  return string.format('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ', y, m, d, math.floor(sod / 3600), math.floor((sod % 3600) / 60), sod % 60, msr)
end

-- HMGET of many fields, in chunks (Lua's unpack is limited to a few thousand values).
local function hmget_all(key, fields)
  local out = {}
  for i = 1, #fields, 1000 do
    local chunk = {}
    for j = i, math.min(i + 999, #fields) do chunk[#chunk + 1] = fields[j] end
    local got = R('HMGET', key, unpack(chunk))
    for j = 1, #got do out[#out + 1] = got[j] end
  end
  return out
end

-- The tasks a link or unlink changes: touch(id, field) records each in first-touched order;
-- finish(P, env) bumps each one's version, journals one `updated` event per task with the fields
-- changed, and returns their tuples.
local function task_changes()
  local changed, order = {}, {}
  local self = {}
  function self.touch(id, field)
    if not changed[id] then
      changed[id] = {}
      order[#order + 1] = id
    end
    if not contains(changed[id], field) then changed[id][#changed[id] + 1] = field end
  end
  function self.finish(P, env)
    local out = {}
    for _, id in ipairs(order) do
      bump_task(P, id)
      local t = task_tuple(P, id)
      task_event(P, env, 'updated', t, table.concat(changed[id], ','))
      out[#out + 1] = t
    end
    return out
  end
  return self
end

-- The team's view stamp (TeamStore.viewStamp, Lease.viewStamp): what a reader's guard and prompt
-- read beside a take — the config (skeleton, roster, lead, each member's document), the settings
-- and the member records — as versions only: the generation, the roster version (bumped by every
-- member added or removed, so also by every record written or dropped), the settings version and
-- the sum of the members' view versions (`vver`: each update but one of `isActive` alone bumps one,
-- never down while the roster stands; `isActive`, the liveness flag every turn writes, is judged by
-- no rule, prompt or guard, so it leaves kept views standing).
-- Every one only grows within a generation and a generation number is never reused, so two equal
-- stamps mean nothing of that changed in between. 2 + N calls for N members, no document read.
local function view_stamp(P)
  local meta = R('HMGET', P .. 'meta', 'rosterVer')
  local sum = 0
  for _, name in ipairs(R('LRANGE', P .. 'roster', 0, -1)) do sum = sum + (tonumber(R('HGET', mkey(P, name), 'vver')) or 0) end
  return P .. '|' .. (meta[1] or '0') .. '|' .. (R('HGET', P .. 'settings', 'ver') or '0') .. '|' .. int(sum)
end
