-- listPathLeases / acquirePathLease / releasePathLeases, write half (compare-and-set): replaces the
-- team's path-lease document with the caller's decided copy (src/domain/path-leases.ts) if its
-- version is still the one read, and journals the caller's `lease` events (whole JSON in `h`).
-- On 'retry' the caller reads and decides again, so two racing acquirers never both win.
-- KEYS[1] base prefix
-- ARGV[1] expected version   ARGV[2] new document JSON   ARGV[3..] event JSON, one per change
-- Returns ok { 'ok' } with the events; retry; err TEAM_NOT_FOUND.
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local k = P .. 'pathleases'
local ver = R('HGET', k, 'ver') or '0'
if ver ~= ARGV[1] then return { 'retry' } end
R('HSET', k, 'doc', ARGV[2])
R('HINCRBY', k, 'ver', 1)
for i = 3, #ARGV do emit(P, { 'h', ARGV[i] }) end
hint('config')
return done(base, { 'ok' })
