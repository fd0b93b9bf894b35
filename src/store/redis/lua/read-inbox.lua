#!lua flags=no-writes
-- readInbox (read only): an inbox's entries in order with their read state, in one snapshot.
-- KEYS[1] base prefix
-- ARGV[1] member   ARGV[2] 'live' | 'archive'
-- Returns ok { seq counter, { entry JSON, unread '1'|'0' }... } (archive: every entry is read);
-- a missing team reads as empty (marked 'absent', reply.ts).
local base, member = KEYS[1], ARGV[1]
local P = gen_prefix(base)
if not P then return { 'ok', { '0' }, {}, 'absent' } end
local out = { R('GET', ikey(P, 'seq', member)) or '0' }
if ARGV[2] == 'archive' then
  for _, doc in ipairs(R('LRANGE', ikey(P, 'archive', member), 0, -1)) do out[#out + 1] = { doc, '0' } end
  return { 'ok', out, {} }
end
local seqs = R('ZRANGE', ikey(P, 'order', member), 0, -1)
if #seqs == 0 then return { 'ok', out, {} } end
local docs = hmget_all(ikey(P, 'docs', member), seqs)
for i, seq in ipairs(seqs) do
  local unread = R('ZSCORE', ikey(P, 'unread', member), seq) and '1' or '0'
  out[#out + 1] = { docs[i], unread, seq }
end
return { 'ok', out, {} }
