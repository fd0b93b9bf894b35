-- setInboxAside: moves a whole inbox aside (renames its keys under "aside:<stamp>:").
-- KEYS[1] base prefix
-- ARGV[1] inbox name   ARGV[2] stamp (sortable, e.g. 20260301T120000Z)
-- Returns ok { where it went } | ok false (no such inbox); err TEAM_NOT_FOUND.
local base, name, stamp = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
if R('SISMEMBER', P .. 'inboxes', name) == 0 then return done(base, false) end
local aside = P .. 'aside:' .. stamp .. ':'
for _, part in ipairs(INBOX_PARTS) do
  local k = ikey(P, part, name)
  if R('EXISTS', k) == 1 then R('RENAME', k, aside .. 'i:' .. part .. ':' .. name) end
end
R('SREM', P .. 'inboxes', name)
R('RPUSH', P .. 'asides', aside .. '*' .. name)
hint('inbox ' .. name)
return done(base, { aside .. 'i:*:' .. name })
