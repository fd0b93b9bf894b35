#!lua flags=no-writes
-- readViewStamp (read only): the team's view stamp (prelude `view_stamp`): equal stamps read at
-- two instants mean its config, settings and member records did not change in between.
-- KEYS[1] base prefix
-- Returns ok { stamp }; err TEAM_NOT_FOUND.
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
return { 'ok', { view_stamp(P) }, {} }
