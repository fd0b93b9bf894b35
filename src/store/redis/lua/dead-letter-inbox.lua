-- deadLetterInbox: moves unread entries of the inbox of a member no longer in the roster to the
-- team's dead letters (hash 'dl' id -> dead letter JSON, list 'dlorder' of ids, oldest first),
-- marking them read in the inbox. The TypeScript side reads the inbox and builds the documents; an
-- entry no longer unread here is skipped, an id already stored is not added again. A member in
-- the roster (it rejoined) changes nothing. No entry can arrive meanwhile: appends to a name not in
-- the roster are refused.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] member   ARGV[3] n, then per entry: seq, id, entry key, dead letter JSON
-- Returns ok { dead letter JSON... } (those added) with events delivery dead-lettered (each
-- entry marked read); err TEAM_NOT_FOUND.
local base, env, member = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
if R('EXISTS', mkey(P, member)) == 1 then return done(base, {}) end
local added = {}
local marked = 0
for i = 0, tonumber(ARGV[3]) - 1 do
  local seq, id, key, doc = ARGV[4 + 4 * i], ARGV[5 + 4 * i], ARGV[6 + 4 * i], ARGV[7 + 4 * i]
  if R('ZREM', ikey(P, 'unread', member), seq) == 1 then
    marked = marked + 1
    R('HDEL', ikey(P, 'taken', member), seq)
    if R('HSETNX', P .. 'dl', id, doc) == 1 then
      R('RPUSH', P .. 'dlorder', id)
      added[#added + 1] = doc
    end
    emit(P, { 'h', env, 'kind', 'delivery', 'to', member, 'state', 'dead-lettered', 'key', key })
  end
end
if marked > 0 then hint('inbox ' .. member) end
return done(base, added)
