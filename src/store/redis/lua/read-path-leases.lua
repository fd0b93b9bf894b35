#!lua flags=no-writes
-- listPathLeases / acquirePathLease / releasePathLeases, read half: the team's path-lease document
-- of its current generation, its version, and the server's clock (TIME, epoch ms), by which every
-- lease is judged (docs/leases.md "Clocks").
-- KEYS[1] base prefix
-- Returns ok { doc JSON or '', version or '0', now ms }; err TEAM_NOT_FOUND.
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local cur = R('HMGET', P .. 'pathleases', 'doc', 'ver')
local t = R('TIME')
return { 'ok', { cur[1] or '', cur[2] or '0', tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)) }, {} }
