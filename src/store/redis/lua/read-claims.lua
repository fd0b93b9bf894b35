#!lua flags=no-writes
-- readClaims (read only): every reader claim as stored, dead ones included.
-- KEYS[1] base prefix
-- Returns ok { { claim fields... }... }; a missing team has none (marked 'absent', reply.ts).
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return { 'ok', {}, {}, 'absent' } end
local out = {}
for _, member in ipairs(R('SMEMBERS', P .. 'claims')) do
  local c = R('HGETALL', P .. 'c:' .. member)
  if #c > 0 then out[#out + 1] = c end
end
return { 'ok', out, {} }
