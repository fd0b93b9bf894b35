#!lua flags=no-writes
-- readInboxChanges (read only): an inbox past a position, in one snapshot (TeamStore.readInboxChanges).
-- KEYS[1] base prefix
-- ARGV[1] member   ARGV[2] after this seq ('' = every entry)   ARGV[3] first seq, ARGV[4] last seq
-- of the caller's mark ('' = none): their entry JSON is returned, to tell a replaced inbox.
-- Returns ok { generation prefix, append counter, live count, first seq ('' = empty),
-- { unread seq... }, doc at ARGV[3] | false, doc at ARGV[4] | false, { entry JSON, unread '1'|'0', seq }... }
-- Costs what is past the position plus the unread set, never the read history; a missing team
-- reads as empty (marked 'absent', reply.ts).
local base, member, after = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return { 'ok', { '', '0', '0', '', {}, false, false }, {}, 'absent' } end
local order, docsk, unreadk = ikey(P, 'order', member), ikey(P, 'docs', member), ikey(P, 'unread', member)
local first = R('ZRANGE', order, 0, 0)[1] or ''
local unread = R('ZRANGE', unreadk, 0, -1)
local function doc(seq)
  if seq == '' then return false end
  return R('HGET', docsk, seq) or false
end
local out = { P, R('GET', ikey(P, 'seq', member)) or '0', tostring(R('ZCARD', order)), first, unread, doc(ARGV[3]), doc(ARGV[4]) }
local seqs
if after == '' then seqs = R('ZRANGE', order, 0, -1) else seqs = R('ZRANGE', order, '(' .. after, '+inf', 'BYSCORE') end
if #seqs == 0 then return { 'ok', out, {} } end
local unreadSet = {}
for _, s in ipairs(unread) do unreadSet[s] = true end
local docs = hmget_all(docsk, seqs)
for i, seq in ipairs(seqs) do
  out[#out + 1] = { docs[i], unreadSet[seq] and '1' or '0', seq }
end
return { 'ok', out, {} }
