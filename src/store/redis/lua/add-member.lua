-- addMember (compare-and-set): adds a member built by the caller from the roster it read
-- (palette color by roster position), and marks read the earlier shutdown requests the caller
-- found in the member's inbox. Refuses a name already in the roster (compared case-insensitively)
-- or an agentId in use, whatever the versions say.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] name   ARGV[3] lowercased name   ARGV[4] agentId
-- ARGV[5] member JSON   ARGV[6] expected rosterVer ('' = no check)   ARGV[7] expected inbox
-- seq counter ('' = no check)   ARGV[8] member record JSON ('' = none; kept in the hash
-- 'records' of the generation, replacing one of an earlier member of the name and carrying its
-- revoked key: protocol/member-record.ts replacingRecord)
-- ARGV[9] n entries to mark read, then their inbox seqs.
-- Returns ok { member JSON } with events member joined (+ delivery read per marked entry);
-- retry (a version moved); err TEAM_NOT_FOUND; err MEMBER_EXISTS { existing name }.
-- protocol/member-record.ts replacingRecord: `rec` (the new record's JSON text) with the revoked
-- keys the record stored under the name now (`prior`, JSON text or nil) carried, then that record's
-- own key when it is a kept one (removedAt, identity), oldest first. Spliced into the text (cjson
-- would reorder keys and turn [] into {}); numbers written as integers.
local function replacing_record(prior, rec)
  if not prior then return rec end
  local ok, p = pcall(cjson.decode, prior)
  if not ok or type(p) ~= 'table' then return rec end
  local parts = {}
  local function add(k)
    if type(k) == 'table' and type(k.publicKey) == 'string' and type(k.keyId) == 'string' and type(k.joinedAt) == 'number' and type(k.removedAt) == 'number' then
      parts[#parts + 1] = '{"publicKey":' .. cjson.encode(k.publicKey) .. ',"keyId":' .. cjson.encode(k.keyId) .. ',"joinedAt":' .. string.format('%d', k.joinedAt) .. ',"removedAt":' .. string.format('%d', k.removedAt) .. '}'
    end
  end
  if type(p.revokedKeys) == 'table' then
    for _, k in ipairs(p.revokedKeys) do add(k) end
  end
  if type(p.identity) == 'table' and type(p.removedAt) == 'number' then
    add({ publicKey = p.identity.publicKey, keyId = p.identity.keyId, joinedAt = p.joinedAt, removedAt = p.removedAt })
  end
  if #parts == 0 or string.sub(rec, -1) ~= '}' then return rec end
  return string.sub(rec, 1, -2) .. ',"revokedKeys":[' .. table.concat(parts, ',') .. ']}'
end
local base, env, name, lc, agent = KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local clash = R('HGET', P .. 'lc', lc) or R('HGET', P .. 'agents', agent)
if clash then return fail('MEMBER_EXISTS', clash) end
if ARGV[6] ~= '' and R('HGET', P .. 'meta', 'rosterVer') ~= ARGV[6] then return { 'retry' } end
if ARGV[7] ~= '' and (R('GET', ikey(P, 'seq', name)) or '0') ~= ARGV[7] then return { 'retry' } end
R('RPUSH', P .. 'roster', name)
R('HSET', mkey(P, name), 'doc', ARGV[5], 'ver', '0', 'lc', lc, 'agentId', agent)
R('HSET', P .. 'lc', lc, name)
R('HSET', P .. 'agents', agent, name)
R('HINCRBY', P .. 'meta', 'rosterVer', 1)
if ARGV[8] ~= '' then R('HSET', P .. 'records', name, replacing_record(R('HGET', P .. 'records', name), ARGV[8])) end
emit(P, { 'h', env, 'kind', 'member', 'action', 'joined', 'name', name, 'agentId', agent })
for i = 1, tonumber(ARGV[9]) do
  local seq = ARGV[9 + i]
  if R('ZREM', ikey(P, 'unread', name), seq) == 1 then
    R('HDEL', ikey(P, 'taken', name), seq)
    emit(P, { 'h', env, 'kind', 'delivery', 'to', name, 'state', 'read', 'key', R('HGET', ikey(P, 'keys', name), seq) })
    hint('inbox ' .. name)
  end
end
hint('config')
return done(base, { ARGV[5] })
