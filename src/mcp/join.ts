/**
 * Joining a team as a member when `mailroom mcp` starts: an existing member (matched by exact name)
 * is reused as it is; otherwise the agent is registered with {@link spawnMember}.
 *
 * Roster fields: an MCP agent has no pane and is none of Claude Code's backends, so it is
 * registered with `tmuxPaneId: ""` and no `backendType` (`rosterBackend('mcp')`; the evidence is in
 * src/protocol/backend.ts and docs/format.md §4 "Backend type and pane id"). Claude Code's lead
 * reads every member from config.json and delivers to it through its inbox file whatever the
 * backend; its `shutdown_approved` then carries no `paneId`/`backendType`, so the lead kills no pane
 * and goes on to remove the member and unassign its tasks (reference §7.4). `in-process` would make
 * a 2.1.332 lead treat its messages as coming from an in-process teammate it does not run
 * (suspect); `tmux`/`iterm2` would make the lead kill a pane id that is not ours; an invented value
 * is outside the enum 2.1.332 validates.
 */
import { UNKNOWN_MODEL } from '../core/members/known-model.js';
import { isMailroomError, MailroomError } from '../errors.js';
import type { MemberRuntime } from '../protocol/backend.js';
import type { Member } from '../protocol/config.js';
import { findMember, leadName } from '../domain/roster.js';
import { spawnMember } from '../core/members/spawn.js';
import type { Stores } from '../store/selection.js';

/** How an MCP agent is registered (see the module comment for its roster fields and why). */
export const MCP_BACKEND = 'mcp' satisfies MemberRuntime;

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
  /** Capabilities recorded on a new member (its member record; src/domain/capabilities.ts). */
  capabilities?: readonly string[] | undefined;
}

/** Result of {@link joinTeam}. */
export interface JoinResult {
  member: Member;
  /** True when this call added the member to config.json. */
  registered: boolean;
  /** The team's lead (a team's lead does not change: read from the config this call read). */
  lead: string;
}

/**
 * Returns the member named `name`, registering it first if the team has no such member.
 * @throws TEAM_NOT_FOUND, INVALID_NAME (new names must match ^[a-z0-9][a-z0-9-]{0,63}$),
 * MEMBER_EXISTS (a member whose name differs only in case)
 */
export async function joinTeam(options: JoinOptions): Promise<JoinResult> {
  const config = await options.store.team.readConfig(options.team);
  const lead = leadName(config);
  const existing = findMember(config, options.name);
  if (existing) return { member: existing, registered: false, lead };
  // `--as Dave` beside a member "dave" means that member, not a new one ("Try dave-2" would mislead).
  const sameLetters = config.members.find((m) => m.name.toLowerCase() === options.name.toLowerCase());
  if (sameLetters) {
    throw new MailroomError('MEMBER_EXISTS', `Team "${options.team}" already has a member named "${sameLetters.name}" (names are lowercase). To act as it, run with --as ${sameLetters.name}.`, {
      details: { name: options.name, suggestion: sameLetters.name },
    });
  }
  try {
    const member = await spawnMember({
      root: options.store,
      team: options.team,
      name: options.name,
      model: options.model ?? UNKNOWN_MODEL,
      modelIsLabel: true,
      type: options.type,
      backend: MCP_BACKEND,
      cwd: options.cwd,
      ...(options.capabilities !== undefined ? { capabilities: options.capabilities } : {}),
    });
    return { member, registered: true, lead };
  } catch (err) {
    if (!isMailroomError(err, 'MEMBER_EXISTS')) throw err;
    const raced = findMember(await options.store.team.readConfig(options.team), options.name);
    if (raced) return { member: raced, registered: false, lead };
    throw err;
  }
}
