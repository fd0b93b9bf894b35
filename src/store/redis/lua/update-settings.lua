-- updateSettings (compare-and-set): replaces the team's settings document with the caller's
-- patched copy (src/domain/settings.ts) if its version is still the one the caller read, and
-- journals a settings event naming the changed keys. On 'retry' the caller re-reads and applies
-- its patch again (a rule-level patch, `policy.createTasks`, so concurrent edits of different
-- rules all survive).
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON (v 3)   ARGV[2] expected version   ARGV[3] new document JSON
-- ARGV[4] changed keys (comma-separated)
-- Returns ok { doc JSON } with event settings; retry; err TEAM_NOT_FOUND.
local base, env = KEYS[1], ARGV[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local k = P .. 'settings'
local ver = R('HGET', k, 'ver') or '0'
if ver ~= ARGV[2] then return { 'retry' } end
R('HSET', k, 'doc', ARGV[3])
R('HINCRBY', k, 'ver', 1)
emit(P, { 'h', env, 'kind', 'settings', 'changed', ARGV[4] })
hint('config')
return done(base, { ARGV[3] })
