-- acknowledge: marks a lease's entries read (all, or those whose identity is listed); the lease
-- ends once it holds nothing more (acknowledging some keys keeps it for the others). A late acknowledgement of an expired
-- lease never marks an entry another live lease took meanwhile.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] member   ARGV[3] lease id   ARGV[4] now (epoch ms)
-- ARGV[5] n keys (0 = all), then the keys, then the reader claim token the caller must hold
-- ('' = unfenced)
-- Returns ok { how many turned read } with events delivery read (each); err TEAM_NOT_FOUND;
-- err READER_FENCED { the current claim's fields } (nothing marked).
local base, env, member, lease = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local fenced = fence(P, member, ARGV[6 + tonumber(ARGV[5])])
if fenced then return fenced end
local lk = P .. 'lease:' .. lease
local rec = R('HMGET', lk, 'member', 'seqs')
if not rec[1] or rec[1] ~= member then return done(base, { '0' }) end
local now = tonumber(ARGV[4])
local n = tonumber(ARGV[5])
local wanted = nil
if n > 0 then
  wanted = {}
  for i = 1, n do wanted[ARGV[5 + i]] = true end
end
local takenk = ikey(P, 'taken', member)
-- True when another lease that is still live holds the entry at `seq`.
local function held_by_other(seq)
  local holder = R('HGET', takenk, seq)
  if not holder or holder == lease then return false end
  local u = R('HGET', P .. 'lease:' .. holder, 'until')
  return u and tonumber(u) > now or false
end
local count = 0
local kept = {}
for _, seq in ipairs(split(rec[2])) do
  local key = R('HGET', ikey(P, 'keys', member), seq)
  if not wanted or (key and wanted[key]) then
    if not held_by_other(seq) and R('ZREM', ikey(P, 'unread', member), seq) == 1 then
      R('HDEL', ikey(P, 'handed', member), seq)
      count = count + 1
      emit(P, { 'h', env, 'kind', 'delivery', 'to', member, 'state', 'read', 'key', key or '', 'lease', lease })
    end
    if R('HGET', takenk, seq) == lease then R('HDEL', takenk, seq) end
  elseif R('HGET', takenk, seq) == lease then
    kept[#kept + 1] = seq
  end
end
-- Acknowledging some keys keeps the lease for the rest it still holds.
if #kept > 0 then R('HSET', lk, 'seqs', table.concat(kept, ',')) else R('DEL', lk) end
if count > 0 then hint('inbox ' .. member) end
return done(base, { int(count) })
