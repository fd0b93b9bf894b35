#!lua flags=no-writes
-- listInboxes (read only): every inbox that exists, with whether its name is in the roster.
-- KEYS[1] base prefix
-- Returns ok { { name, member '1'|'0' }... }; a missing team has none (marked 'absent', reply.ts).
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return { 'ok', {}, {}, 'absent' } end
local out = {}
for _, name in ipairs(R('SMEMBERS', P .. 'inboxes')) do
  out[#out + 1] = { name, R('EXISTS', mkey(P, name)) == 1 and '1' or '0' }
end
return { 'ok', out, {} }
