#!lua flags=no-writes
-- readTeam (read only): the config skeleton and the roster in order, in one snapshot.
-- KEYS[1] base prefix
-- Returns ok { skeleton, rosterVer, lead, { name, doc, ver }... }; err TEAM_NOT_FOUND.
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local meta = R('HMGET', P .. 'meta', 'rosterVer', 'lead')
local out = { R('GET', P .. 'config'), meta[1], meta[2] }
for _, name in ipairs(R('LRANGE', P .. 'roster', 0, -1)) do
  local m = R('HMGET', mkey(P, name), 'doc', 'ver')
  out[#out + 1] = { name, m[1], m[2] }
end
return { 'ok', out, {} }
