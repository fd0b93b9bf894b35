#!lua flags=no-writes
-- readEvents (read only): journal entries after a stream id, of the team's current generation
-- (a deleted team has none until it is restored), with what the reader needs to tell a reset.
-- KEYS[1] base prefix
-- ARGV[1] after this stream id (exclusive; '0-0' = from the start)   ARGV[2] count ('' = all)
-- Returns ok { epoch|false, first id|'', max deleted id, { id, field, value... }... } (a missing
-- team: marked 'absent', reply.ts).
local base = KEYS[1]
local gen = R('HGET', base .. 'team', 'gen')
if not gen then return { 'ok', { false, '', '0-0' }, {}, 'absent' } end
local P = base .. 'g' .. gen .. ':'
local epoch = R('HGET', P .. 'meta', 'epoch')
local sk = P .. 'events'
if R('EXISTS', sk) == 0 then return { 'ok', { epoch, '', '0-0' }, {} } end
local info = R('XINFO', 'STREAM', sk)
local first, maxdel = '', '0-0'
for i = 1, #info, 2 do
  if info[i] == 'first-entry' and info[i + 1] then first = info[i + 1][1] end
  if info[i] == 'max-deleted-entry-id' then maxdel = info[i + 1] end
end
local out = { epoch, first, maxdel }
local entries
if ARGV[2] ~= '' then
  entries = R('XRANGE', sk, '(' .. ARGV[1], '+', 'COUNT', ARGV[2])
else
  entries = R('XRANGE', sk, '(' .. ARGV[1], '+')
end
for _, e in ipairs(entries) do
  local row = { e[1] }
  for _, v in ipairs(e[2]) do row[#row + 1] = v end
  out[#out + 1] = row
end
return { 'ok', out, {} }
