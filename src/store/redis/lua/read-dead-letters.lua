#!lua flags=no-writes
-- readDeadLetters (read only): the team's dead letters, oldest first.
-- KEYS[1] base prefix
-- Returns ok { dead letter JSON... }; err TEAM_NOT_FOUND.
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local ids = R('LRANGE', P .. 'dlorder', 0, -1)
if #ids == 0 then return { 'ok', {}, {} } end
local docs = hmget_all(P .. 'dl', ids)
local out = {}
for i = 1, #ids do if docs[i] then out[#out + 1] = docs[i] end end
return { 'ok', out, {} }
