-- removeDeadLetter: removes one dead letter; exactly one of racing callers gets it.
-- KEYS[1] base prefix
-- ARGV[1] id
-- Returns ok false (no such dead letter) | ok dead letter JSON; no events; err TEAM_NOT_FOUND.
local base, id = KEYS[1], ARGV[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local doc = R('HGET', P .. 'dl', id)
if not doc then return done(base, false) end
R('HDEL', P .. 'dl', id)
R('LREM', P .. 'dlorder', 0, id)
return done(base, doc)
