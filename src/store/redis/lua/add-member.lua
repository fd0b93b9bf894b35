-- addMember (compare-and-set): adds a member built by the caller from the roster it read
-- (palette color by roster position), and marks read the earlier shutdown requests the caller
-- found in the member's inbox. Refuses a name already in the roster (compared case-insensitively)
-- or an agentId in use, whatever the versions say.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] name   ARGV[3] lowercased name   ARGV[4] agentId
-- ARGV[5] member JSON   ARGV[6] expected rosterVer ('' = no check)   ARGV[7] expected inbox
-- seq counter ('' = no check)   ARGV[8] member record JSON ('' = none; kept in the hash
-- 'records' of the generation, replacing one of an earlier member of the name)
-- ARGV[9] n entries to mark read, then their inbox seqs.
-- Returns ok { member JSON } with events member joined (+ delivery read per marked entry);
-- retry (a version moved); err TEAM_NOT_FOUND; err MEMBER_EXISTS { existing name }.
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
if ARGV[8] ~= '' then R('HSET', P .. 'records', name, ARGV[8]) end
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
