#!lua flags=no-writes
-- readClaims (read only): every reader claim as stored, dead ones included; `lastBeatAt` no
-- earlier than the server's start (judged_beat, prelude: a restart lost the beats since its data).
-- KEYS[1] base prefix
-- Returns ok { { claim fields... }... }; a missing team has none (marked 'absent', reply.ts).
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return { 'ok', {}, {}, 'absent' } end
local out = {}
for _, member in ipairs(R('SMEMBERS', P .. 'claims')) do
  local c = R('HGETALL', P .. 'c:' .. member)
  for i = 1, #c, 2 do
    if c[i] == 'lastBeatAt' then c[i + 1] = tostring(judged_beat(c[i + 1])) end
  end
  if #c > 0 then out[#out + 1] = c end
end
return { 'ok', out, {} }
