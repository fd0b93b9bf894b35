-- removeMember: removes a member (by name or agentId; never the lead) and its member record (a
-- signing member's is kept, marked removedAt: its key is revoked from then) and,
-- in the same step, puts its tasks that are not completed back to pending with no owner. Its
-- inbox is kept.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] name or agentId
-- Returns ok false (no such member, or the lead) | ok { member JSON, { task tuple }... } with
-- events member left, task updated (each unassigned); err TEAM_NOT_FOUND.
local base, env, who = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local name = who
if R('EXISTS', mkey(P, name)) == 0 then name = R('HGET', P .. 'agents', who) end
if not name then return done(base, false) end
local m = R('HMGET', mkey(P, name), 'doc', 'lc', 'agentId')
if m[3] == R('HGET', P .. 'meta', 'lead') then return done(base, false) end
R('LREM', P .. 'roster', 0, name)
R('DEL', mkey(P, name))
R('HDEL', P .. 'lc', m[2])
R('HDEL', P .. 'agents', m[3])
-- A signing member's record keeps its identity, marked removedAt (the server's clock): its key is
-- revoked from then, not forgotten (protocol/member-record.ts retiredRecord). Any other is deleted,
-- except an earlier member's kept record (marked removedAt), which no later removal undoes.
local rec = R('HGET', P .. 'records', name)
local okr, r = pcall(cjson.decode, rec or 'null')
local okm, member = pcall(cjson.decode, m[1] or 'null')
local same = okr and okm and type(r) == 'table' and type(member) == 'table' and r.agentId == m[3] and r.joinedAt == member.joinedAt
if same and type(r.identity) == 'table' and r.removedAt == nil and string.sub(rec, -1) == '}' then
  -- Spliced into the stored text rather than re-encoded: cjson would reorder keys and turn [] into {}.
  R('HSET', P .. 'records', name, string.sub(rec, 1, -2) .. ',"removedAt":' .. string.format('%d', store_now()) .. '}')
elseif not (okr and type(r) == 'table' and r.removedAt ~= nil) then
  R('HDEL', P .. 'records', name)
end -- else an earlier member's kept record (this member had none): its revocation stays
R('HINCRBY', P .. 'meta', 'rosterVer', 1)
emit(P, { 'h', env, 'kind', 'member', 'action', 'left', 'name', name, 'agentId', m[3] })
hint('config')
local tasks = unassign(P, env, name, nil)
return done(base, { m[1], tasks })
