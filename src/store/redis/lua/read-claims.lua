#!lua flags=no-writes
-- readClaims (read only): every reader claim as stored, dead ones included; `lastBeatAt` no
-- earlier than the server's start (judged_beat, prelude: a restart lost the beats since its data).
-- KEYS[1] base prefix
-- Returns ok { { claim fields... }... }; a missing team has none (marked 'absent', reply.ts).
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return { 'ok', {}, {}, 'absent' } end
local out = {}
-- The server's start is read (INFO) only when some claim has not beaten within its ttl: a claim
-- that has is judged alive whatever its beat, and a team whose members all beat pays nothing.
local now, started = store_now(), nil
for _, member in ipairs(R('SMEMBERS', P .. 'claims')) do
  local c = R('HGETALL', P .. 'c:' .. member)
  local f = {}
  for i = 1, #c, 2 do f[c[i]] = i + 1 end
  if f.lastBeatAt and f.ttlMs and tonumber(c[f.lastBeatAt]) + tonumber(c[f.ttlMs]) < now then
    started = started or server_started()
    c[f.lastBeatAt] = tostring(judged_beat(c[f.lastBeatAt], started))
  end
  if #c > 0 then out[#out + 1] = c end
end
return { 'ok', out, {} }
