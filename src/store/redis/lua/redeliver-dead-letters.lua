-- redeliverDeadLetters: a member back in the roster under a departed name gets its dead letters
-- back (issue 23 item 3): each entry still in its inbox becomes unread again there and the dead
-- letter is removed, in one step, so nothing is shown read that was never read and a later retry
-- finds nothing to re-send. A dead letter whose entry left the live inbox (archived) is kept for
-- `dead-letter retry`. A name not in the roster changes nothing.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] member   ARGV[3] n, then per dead letter: id, entry key
-- Returns ok { dead letter JSON... } (those redelivered) with events delivery released (each
-- entry back to unread); err TEAM_NOT_FOUND.
local base, env, member = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
if R('EXISTS', mkey(P, member)) == 0 then return done(base, {}) end
local back = {}
for i = 0, tonumber(ARGV[3]) - 1 do
  local id, key = ARGV[4 + 2 * i], ARGV[5 + 2 * i]
  local doc = R('HGET', P .. 'dl', id)
  local seq = R('HGET', ikey(P, 'bykey', member), key)
  if doc and seq and R('HEXISTS', ikey(P, 'docs', member), seq) == 1 then
    R('ZADD', ikey(P, 'unread', member), seq, seq)
    R('HDEL', P .. 'dl', id)
    R('LREM', P .. 'dlorder', 0, id)
    back[#back + 1] = doc
    emit(P, { 'h', env, 'kind', 'delivery', 'to', member, 'state', 'released', 'key', key })
  end
end
if #back > 0 then hint('inbox ' .. member) end
return done(base, back)
