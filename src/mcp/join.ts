/**
 * Joining a team as a member when `mailroom mcp` starts: an existing member (matched by exact name)
 * is reused as it is; otherwise the agent is registered with {@link spawnMember}.
 *
 * backendType: an MCP agent is registered as `in-process` with `tmuxPaneId: "in-process"`, the
 * values Claude Code writes for teammates that have no pane (2.1.109 snapshot `2-teammate-spawned`).
 * Claude Code's lead reads every member from config.json and delivers to it through its inbox file
 * whatever the backend; for `in-process` its teardown on `shutdown_approved` looks for an in-memory
 * teammate, finds none, and goes on to remove the member and unassign its tasks (reference §7.4).
 * `tmux`/`iterm2` would make the lead kill a pane id that is not ours, and an invented value is
 * outside the enum 2.1.332 validates in `shutdown_approved`.
 */
import { isMailroomError } from '../errors.js';
import type { Member } from '../protocol/config.js';
import { findMember } from '../core/members.js';
import { spawnMember } from '../core/spawn.js';
import type { Stores } from '../store/selection.js';

/** The backendType an MCP agent is registered with (see the module comment for why). */
export const MCP_BACKEND = 'in-process';

/** Input of {@link joinTeam}. */
export interface JoinOptions {
  store: Stores;
  team: string;
  /** The agent's member name. */
  name: string;
  /** Model id recorded on a new member (default `"unknown"`: mailroom cannot see the client's model). */
  model?: string | undefined;
  /** agentType recorded on a new member (omitted by default). */
  type?: string | undefined;
  /** Working directory recorded on a new member (default `process.cwd()`). */
  cwd?: string | undefined;
}

/** Result of {@link joinTeam}. */
export interface JoinResult {
  member: Member;
  /** True when this call added the member to config.json. */
  registered: boolean;
}

/**
 * Returns the member named `name`, registering it first if the team has no such member.
 * @throws TEAM_NOT_FOUND, INVALID_NAME (new names must match ^[a-z0-9][a-z0-9-]{0,63}$),
 * MEMBER_EXISTS (a member whose name differs only in case)
 */
export async function joinTeam(options: JoinOptions): Promise<JoinResult> {
  const existing = findMember(await options.store.team.readConfig(options.team), options.name);
  if (existing) return { member: existing, registered: false };
  try {
    const member = await spawnMember({
      root: options.store,
      team: options.team,
      name: options.name,
      model: options.model ?? 'unknown',
      modelIsLabel: true,
      type: options.type,
      backend: MCP_BACKEND,
      cwd: options.cwd,
    });
    return { member, registered: true };
  } catch (err) {
    if (!isMailroomError(err, 'MEMBER_EXISTS')) throw err;
    const raced = findMember(await options.store.team.readConfig(options.team), options.name);
    if (raced) return { member: raced, registered: false };
    throw err;
  }
}
