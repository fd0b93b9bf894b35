#!lua flags=no-writes
-- readAppended (read only): what an append with this idempotency key stored, as append-messages.lua
-- recorded it under `idem:m:<key>` (the payload its retry replays), or nothing.
-- KEYS[1] base prefix
-- ARGV[1] idempotency key
-- Returns ok { payload } (the recorded rows, as JSON: prelude `idem_json`) | ok {} (no such key); err TEAM_NOT_FOUND.
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local prev = R('GET', P .. 'idem:m:' .. ARGV[1])
if not prev then return { 'ok', {}, {} } end
return { 'ok', { idem_json(prev) }, {} }
