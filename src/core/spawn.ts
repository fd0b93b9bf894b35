/**
 * Registering teammates the way Claude Code does (2.1.109 snapshot `2-teammate-spawned`): agentId
 * `<name>@<team>`, palette color round-robin, joinedAt, tmuxPaneId, subscriptions, model, prompt,
 * planModeRequired, cwd, and backendType for a pane member — with the pane id and backend type
 * saying what the member really is (src/protocol/backend.ts). The spawn prompt becomes the first
 * inbox message from the lead. Starting the teammate is the runtime's job.
 */
import { MailroomError } from '../errors.js';
import { PALETTE, teamKeepsPrompts, type Member, type TeamConfig } from '../protocol/config.js';
import { MEMBER_RECORD_VERSION, type MemberRecord } from '../protocol/member-record.js';
import type { Store } from '../store/store.js';
import { MEMBER_RUNTIMES, rosterBackend, type MemberRuntime } from '../protocol/backend.js';
import { parseModelSpec } from '../protocol/model-spec.js';
import { assertValidName } from '../store/names.js';
import { requireUserDir } from '../store/user-files.js';
import { nowOf, storeOf, type TeamOptions } from './context.js';
import { leadName } from './members.js';
import { sendMessage } from './messages.js';
import { memberEvent, record } from './journal.js';
import { retireEarlierShutdownRequests } from './earlier-requests.js';

/**
 * How a registered member runs (src/protocol/backend.ts): `in-process` (inside a mailroom host:
 * `mailroom run`, `mailroom agent`), `process` (its own `mailroom agent` process), `mcp` (an MCP
 * client), `tmux`/`iterm2` (a real terminal pane, with its pane id).
 */
export type BackendType = MemberRuntime;

/** Input of {@link spawnMember}. */
export interface SpawnOptions extends TeamOptions {
  name: string;
  /** agentType (e.g. `general-purpose`). */
  type?: string;
  /**
   * Model spec, e.g. `worker`, `anthropic:claude-sonnet-4-5` (default `worker`): checked with
   * `parseModelSpec` unless {@link SpawnOptions.modelIsLabel} is set.
   */
  model?: string;
  /**
   * The member runs outside mailroom (an MCP client): `model` only describes it (e.g. `unknown`)
   * and is recorded unchecked, since no mailroom runtime creates a model from it.
   */
  modelIsLabel?: boolean;
  /**
   * Spawn prompt: delivered as its first inbox message and kept in its member record; also stored
   * on the config entry where the team's client writes prompts ({@link teamKeepsPrompts}: 2.1.109
   * and mailroom teams, not 2.1.332 ones).
   */
  prompt?: string;
  /** Palette color (default: next in round-robin). */
  color?: string;
  /**
   * How the member runs (default `in-process`). It decides the `tmuxPaneId`/`backendType` recorded
   * in config.json ({@link rosterBackend}): `""` and none, unless it is a tmux/iTerm2 pane with `paneId`.
   */
  backend?: BackendType;
  /** The member's pane id, for the `tmux` and `iterm2` backends only (a tmux `%N`, an iTerm2 session UUID). */
  paneId?: string;
  /** Working directory: must exist; stored absolute (default: this process's). */
  cwd?: string;
  planModeRequired?: boolean;
}

/**
 * Adds a member to config.json under the config lock, writes its member record (how it runs, its
 * prompt; docs/format.md "Member records") and delivers its prompt. Unread
 * `shutdown_request`s already in its inbox, sent before it joined, were for an earlier member of
 * that name: they are marked read (see {@link retireEarlierShutdownRequests}).
 * @returns the member as written.
 * @throws INVALID_NAME, MEMBER_EXISTS, INVALID_ARGUMENT (an unknown backend; color outside the palette; a model spec
 * whose kind is unknown or whose name is missing — checked before anything is written, without
 * creating the model; a cwd that is not an existing directory), TEAM_NOT_FOUND
 */
export async function spawnMember(options: SpawnOptions): Promise<Member> {
  const store = storeOf(options.root);
  // The roster is read first so that a refused name's suggestion is free in this team.
  assertValidName(options.name, 'agent', { taken: (await store.readConfig(options.team)).members.map((m) => m.name) });
  if (options.model !== undefined && !options.modelIsLabel) parseModelSpec(options.model);
  if (options.backend !== undefined && !MEMBER_RUNTIMES.includes(options.backend)) {
    throw new MailroomError('INVALID_ARGUMENT', `Backend "${String(options.backend)}" is unknown: use one of ${MEMBER_RUNTIMES.join(', ')}.`);
  }
  if (options.color !== undefined && !(PALETTE as readonly string[]).includes(options.color)) {
    throw new MailroomError('INVALID_ARGUMENT', `Color "${options.color}" is not in the palette: use one of ${PALETTE.join(', ')}.`);
  }
  const cwd = await requireUserDir(options.cwd ?? process.cwd(), 'working directory (--cwd)');
  // A member record mailroom could not parse is never overwritten: refuse before anything is written.
  await store.readMemberRecord(options.team, options.name);
  let lead = '';
  const member = await store.updateConfig(options.team, (config) => {
    assertFreeName(config, options.name);
    const m = buildMember(config, { ...options, cwd }, nowOf(options));
    config.members.push(m);
    lead = leadName(config);
    return m;
  });
  await record(store, options.team, [memberEvent(options.team, 'joined', member.name, member.agentId, 'mailroom', nowOf(options))]);
  await writeRecord(store, memberRecordOf(options.team, member, options.backend ?? 'in-process', options.prompt));
  await retireEarlierShutdownRequests(store, options.team, member.name, member.joinedAt ?? nowOf(options));
  if (options.prompt) {
    await sendMessage({ ...options, from: lead, to: options.name, text: options.prompt });
  }
  return member;
}

/** The member record of a member just registered (docs/format.md "Member records"). */
function memberRecordOf(team: string, member: Member, runtime: MemberRuntime, prompt: string | undefined): MemberRecord {
  const r: MemberRecord = { v: MEMBER_RECORD_VERSION, team, name: member.name, agentId: member.agentId, joinedAt: member.joinedAt ?? 0, runtime };
  if (prompt !== undefined) r.prompt = prompt;
  return r;
}

/**
 * Writes a member record after its member is in config.json: best effort, as for the journal — the
 * member is registered either way; a failure is a process warning (code `MAILROOM_MEMBER_RECORD`).
 */
async function writeRecord(store: Store, r: MemberRecord): Promise<void> {
  try {
    await store.writeMemberRecord(r);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    process.emitWarning(`mailroom could not write the member record of ${r.name} in team "${r.team}": ${reason}`, { code: 'MAILROOM_MEMBER_RECORD' });
  }
}

function assertFreeName(config: TeamConfig, name: string): void {
  const clash = config.members.find((m) => m.name.toLowerCase() === name.toLowerCase());
  if (!clash) return;
  let n = 2;
  while (config.members.some((m) => m.name.toLowerCase() === `${name}-${n}`)) n++;
  throw new MailroomError('MEMBER_EXISTS', `Team "${config.name}" already has a member named "${clash.name}". Pick another name, e.g. "${name}-${n}".`, {
    details: { team: config.name, name },
  });
}

function buildMember(config: TeamConfig, o: SpawnOptions, now: number): Member {
  const roster = rosterBackend(o.backend ?? 'in-process', o.paneId);
  const m: Record<string, unknown> = { agentId: `${o.name}@${config.name}`, name: o.name };
  if (o.type !== undefined) m.agentType = o.type;
  m.color = o.color ?? PALETTE[config.members.length % PALETTE.length];
  m.joinedAt = now;
  m.tmuxPaneId = roster.tmuxPaneId;
  m.subscriptions = [];
  m.model = o.model ?? 'worker';
  if (o.prompt !== undefined && teamKeepsPrompts(config)) m.prompt = o.prompt;
  m.planModeRequired = o.planModeRequired ?? false;
  m.cwd = o.cwd ?? process.cwd();
  if (roster.backendType !== undefined) m.backendType = roster.backendType;
  return m as Member;
}

/**
 * Removes a member from config.json (matched by name or agentId), as Claude Code's lead does on
 * `shutdown_approved`, and its member record. The inbox is kept. @returns the removed member, or
 * undefined if absent.
 */
export async function removeMember(options: TeamOptions & { name: string }): Promise<Member | undefined> {
  const store = storeOf(options.root);
  const removed = await store.updateConfig(options.team, (config) => {
    const i = config.members.findIndex((m) => m.name === options.name || m.agentId === options.name);
    if (i < 0 || config.members[i]!.agentId === config.leadAgentId) return undefined;
    return config.members.splice(i, 1)[0];
  });
  if (removed) {
    await record(store, options.team, [memberEvent(options.team, 'left', removed.name, removed.agentId, 'mailroom', nowOf(options))]);
    await store.deleteMemberRecord(options.team, removed.name).catch(() => undefined);
  }
  return removed;
}
