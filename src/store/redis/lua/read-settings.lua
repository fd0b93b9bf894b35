#!lua flags=no-writes
-- readSettings (read only): the team's settings document of its current generation and its
-- version (written by update-settings.lua).
-- KEYS[1] base prefix
-- Returns ok { doc JSON or '', version or '0' }; err TEAM_NOT_FOUND.
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local cur = R('HMGET', P .. 'settings', 'doc', 'ver')
return { 'ok', { cur[1] or '', cur[2] or '0' }, {} }
