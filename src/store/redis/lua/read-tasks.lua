#!lua flags=no-writes
-- readTasks (read only): every task in id order, or one, with its versions, in one snapshot.
-- KEYS[1] base prefix
-- ARGV[1] task id ('' = every task)
-- Returns ok { hwm, { id, doc, status, owner|false, blocks, blockedBy, fence|false, dver }... }; a missing team reads as empty (marked 'absent', reply.ts).
local base = KEYS[1]
local P = gen_prefix(base)
if not P then return { 'ok', { '0' }, {}, 'absent' } end
local out = { R('GET', P .. 'hwm') or '0' }
local ids = ARGV[1] ~= '' and { ARGV[1] } or task_ids(P)
for _, id in ipairs(ids) do
  local t = task_tuple(P, id)
  if t then
    t[8] = R('HGET', tkey(P, id), 'dver')
    out[#out + 1] = t
  end
end
return { 'ok', out, {} }
