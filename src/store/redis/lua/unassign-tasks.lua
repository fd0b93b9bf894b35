-- unassignTasks: puts an owner's tasks with one of the given statuses (default: every status
-- but completed) back to pending with no owner.
-- KEYS[1] base prefix
-- ARGV[1] event envelope JSON   ARGV[2] owner   ARGV[3] statuses (comma-separated; '' = default)
-- Returns ok { task tuple of each changed task } with events task updated (each); err TEAM_NOT_FOUND.
local base, env, owner = KEYS[1], ARGV[1], ARGV[2]
local P = gen_prefix(base)
if not P then return fail('TEAM_NOT_FOUND') end
local statuses = nil
if ARGV[3] ~= '' then
  statuses = {}
  for _, s in ipairs(split(ARGV[3])) do statuses[s] = true end
end
return done(base, unassign(P, env, owner, statuses))
