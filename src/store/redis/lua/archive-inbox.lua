-- archiveInbox: moves the read entries at the head of an inbox to its archive list.
-- KEYS[1] base prefix
-- ARGV[1] member   ARGV[2] '1' when only some entries may move, then their keys (entryKey)
-- Returns ok { how many moved } (no events); err TEAM_NOT_FOUND.
local base, member = KEYS[1], ARGV[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local only = nil
if ARGV[2] == '1' then
  only = {}
  for i = 3, #ARGV do only[ARGV[i]] = true end
end
local count = 0
for _, seq in ipairs(R('ZRANGE', ikey(P, 'order', member), 0, -1)) do
  if R('ZSCORE', ikey(P, 'unread', member), seq) then break end
  local key = R('HGET', ikey(P, 'keys', member), seq)
  if only and not (key and only[key]) then break end
  R('RPUSH', ikey(P, 'archive', member), R('HGET', ikey(P, 'docs', member), seq))
  R('HDEL', ikey(P, 'docs', member), seq)
  R('ZREM', ikey(P, 'order', member), seq)
  R('HDEL', ikey(P, 'keys', member), seq)
  if key and R('HGET', ikey(P, 'bykey', member), key) == seq then R('HDEL', ikey(P, 'bykey', member), key) end
  R('HDEL', ikey(P, 'taken', member), seq)
  R('HDEL', ikey(P, 'handed', member), seq)
  count = count + 1
end
if count > 0 then hint('inbox ' .. member) end
return done(base, { int(count) })
