-- recordObserved: journals events seen in the store (made by other writers), as given.
-- KEYS[1] base prefix
-- ARGV[1..n] one event JSON each (stored whole in field 'h')
-- Returns ok {}; err TEAM_NOT_FOUND.
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
for i = 1, #ARGV do emit(P, { 'h', ARGV[i] }) end
return done(base, {})
