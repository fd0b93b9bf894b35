-- unassignTasks: puts an owner's tasks with one of the given statuses (default: every status
-- but completed) back to pending with no owner.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] owner   ARGV[3] statuses (comma-separated; '' = default)
-- ARGV[4] member whose claim must be silent ('' = no condition)   ARGV[5] its judged last beat (epoch ms)
-- With ARGV[4], nothing changes when that member's claim has beaten after ARGV[5] (server clock).
-- Returns ok { task tuple of each changed task } with events task updated (each); err TEAM_NOT_FOUND.
local base, env, owner = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
if ARGV[4] and ARGV[4] ~= '' then
  local beat = R('HGET', P .. 'c:' .. ARGV[4], 'lastBeatAt')
  if beat and tonumber(beat) > tonumber(ARGV[5]) then return done(base, {}) end
end
local statuses = nil
if ARGV[3] ~= '' then
  statuses = {}
  for _, s in ipairs(split(ARGV[3])) do statuses[s] = true end
end
return done(base, unassign(P, env, owner, statuses))
