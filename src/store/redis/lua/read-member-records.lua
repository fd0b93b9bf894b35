#!lua flags=no-writes
-- readMemberRecords (read only): mailroom's member records of the team's current generation
-- (written by add-member.lua, removed by remove-member.lua; a deleted generation keeps its own).
-- KEYS[1] base prefix
-- Returns ok { record JSON... } in member-name order; a missing team has none (marked 'absent', reply.ts).
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return { 'ok', {}, {}, 'absent' } end
local names = R('HKEYS', P .. 'records')
table.sort(names)
local out = {}
for i, name in ipairs(names) do out[i] = R('HGET', P .. 'records', name) end
return { 'ok', out, {} }
