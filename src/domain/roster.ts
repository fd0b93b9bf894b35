/**
 * Roster rules over a team config (reference §2): the lead, member lookup, MEMBER_NOT_FOUND and
 * MEMBER_EXISTS errors, and building a member the way Claude Code registers one (2.1.109 snapshot
 * `2-teammate-spawned`: key order, palette color round-robin by roster position). Pure; shared by
 * every store backend and by core.
 */
import { MailroomError } from '../errors.js';
import { rosterBackend, type MemberRuntime } from '../protocol/backend.js';
import { PALETTE, type Member, type TeamConfig } from '../protocol/config.js';
import { MEMBER_RECORD_VERSION, type MemberRecord, type MemberRecordDraft } from '../protocol/member-record.js';
import { LEAD_NAME, NAME_PATTERN } from './names.js';
import { closestMatch } from './suggest.js';

/** The lead: the member whose `agentId` equals `leadAgentId` (never assumed by name). */
export function leadOf(config: TeamConfig): Member | undefined {
  return config.members.find((m) => m.agentId === config.leadAgentId);
}

/** The lead's member name (`team-lead` unless the config says otherwise). */
export function leadName(config: TeamConfig): string {
  return leadOf(config)?.name ?? LEAD_NAME;
}

/** The member with exactly this name, or undefined. */
export function findMember(config: TeamConfig, name: string): Member | undefined {
  return config.members.find((m) => m.name === name);
}

/**
 * The member with this name; MEMBER_NOT_FOUND otherwise, listing the members and, when one is
 * close to the name given (`Alice` → `alice`, `bbo` → `bob`), naming it: "Did you mean "alice"?",
 * also as `details.suggestion`.
 */
export function requireMember(config: TeamConfig, name: string, role = 'member'): Member {
  const member = findMember(config, name);
  if (member) return member;
  throw memberNotFound(config.name, name, config.members.map((m) => m.name), role);
}

/** MEMBER_NOT_FOUND for `name` in a team whose members are `names` (see {@link requireMember}). Both backends word it so. */
export function memberNotFound(team: string, name: string, names: readonly string[], role = 'member'): MailroomError {
  const suggestion = closestMatch(name, names);
  return new MailroomError(
    'MEMBER_NOT_FOUND',
    `No ${role} named "${name}" in team "${team}".${suggestion ? ` Did you mean "${suggestion}"?` : ''} Members: ${names.join(', ') || '(none)'}. ` +
      `Add one with \`mailroom team spawn ${NAME_PATTERN.test(name) ? name : '<name>'}\`.`,
    { details: { team, name, members: [...names], ...(suggestion ? { suggestion } : {}) } },
  );
}

/** True for members other than the lead. */
export function isTeammate(config: TeamConfig, member: Member): boolean {
  return member.agentId !== config.leadAgentId;
}

/** Index of the member matched by name or agentId (never the lead), or -1. */
export function removableIndex(config: TeamConfig, nameOrAgentId: string): number {
  const i = config.members.findIndex((m) => m.name === nameOrAgentId || m.agentId === nameOrAgentId);
  return i >= 0 && config.members[i]!.agentId !== config.leadAgentId ? i : -1;
}

/**
 * Refuses a name a member already has, compared case-insensitively (Claude Code would silently
 * rename the newcomer `-2`). @throws MEMBER_EXISTS suggesting the first free `<name>-<n>`
 */
export function assertFreeName(config: TeamConfig, name: string): void {
  const clash = config.members.find((m) => m.name.toLowerCase() === name.toLowerCase());
  if (!clash) return;
  throw memberExists(config.name, name, clash.name, config.members.map((m) => m.name));
}

/**
 * MEMBER_EXISTS for a newcomer `name` whose name `clash` (the same in another case) already has,
 * in a team whose members are `names`; suggests the first free `<name>-<n>`. Both backends word it so.
 */
export function memberExists(team: string, name: string, clash: string, names: readonly string[]): MailroomError {
  const taken = new Set(names.map((n) => n.toLowerCase()));
  let n = 2;
  while (taken.has(`${name}-${n}`.toLowerCase())) n++;
  return new MailroomError('MEMBER_EXISTS', `Team "${team}" already has a member named "${clash}". Pick another name, e.g. "${name}-${n}"; to run the member "${clash}" again, use \`mailroom agent ${clash}\`.`, {
    details: { team, name },
  });
}

/** The palette color of the next member: round-robin by roster position, the lead holding slot 0. */
export function nextColor(config: TeamConfig): string {
  return PALETTE[config.members.length % PALETTE.length]!;
}

/**
 * `member` with `color` set where Claude Code writes it (after `agentType`, else after `name`);
 * the other keys keep their order. Keys are copied as own data properties.
 */
export function withColor(member: Member, color: string): Member {
  const after = Object.prototype.hasOwnProperty.call(member, 'agentType') ? 'agentType' : 'name';
  const out: Record<string, unknown> = {};
  const put = (k: string, v: unknown) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const [k, v] of Object.entries(member)) {
    if (k === 'color') continue;
    put(k, v);
    if (k === after) put('color', color);
  }
  return out as Member;
}

/** What a new teammate is registered with (see {@link buildMember}). */
export interface MemberDraft {
  name: string;
  team: string;
  type?: string | undefined;
  /** Palette color; when unset the store assigns the next one under its lock. */
  color?: string | undefined;
  /** How mailroom runs the member (default `in-process`): decides `tmuxPaneId`/`backendType` (src/protocol/backend.ts). */
  backend?: MemberRuntime | undefined;
  /** Its pane id, for the `tmux` and `iterm2` backends only. */
  paneId?: string | undefined;
  model: string;
  /** Set only where the team's client writes prompts on members (`teamKeepsPrompts`: not Claude Code 2.1.332). */
  prompt?: string | undefined;
  planModeRequired?: boolean | undefined;
  cwd: string;
  /** Epoch ms. */
  joinedAt: number;
}

/**
 * A teammate in Claude Code's key order: agentId `<name>@<team>`, name, agentType?, color?,
 * joinedAt, tmuxPaneId, subscriptions, model, prompt?, planModeRequired, cwd, backendType?, isActive
 * (false: nothing runs it yet; TeamDelete of a Claude Code lead refuses a member whose flag is not false) — the
 * pane id and backend type saying what the member really is ({@link rosterBackend}: `""` and no
 * backend type for every member mailroom runs, a real pane only for a tmux/iTerm2 member).
 */
export function buildMember(d: MemberDraft): Member {
  const roster = rosterBackend(d.backend ?? 'in-process', d.paneId);
  const m: Record<string, unknown> = { agentId: `${d.name}@${d.team}`, name: d.name };
  if (d.type !== undefined) m.agentType = d.type;
  if (d.color !== undefined) m.color = d.color;
  m.joinedAt = d.joinedAt;
  m.tmuxPaneId = roster.tmuxPaneId;
  m.subscriptions = [];
  m.model = d.model;
  if (d.prompt !== undefined) m.prompt = d.prompt;
  m.planModeRequired = d.planModeRequired ?? false;
  m.cwd = d.cwd;
  if (roster.backendType !== undefined) m.backendType = roster.backendType;
  // Claude Code's liveness flag: nothing runs the member yet (its runtime sets it while it works).
  m.isActive = false;
  return m as Member;
}

/** A member change: each key set to its new value; `null` removes the key. */
export type MemberChange = { [K in keyof Member]?: Member[K] | null };

/**
 * Applies `patch` to `member` in place (unknown keys kept, changed keys where they were, new ones
 * last). @returns the keys whose value changed (empty: nothing to write)
 */
export function applyMemberPatch(member: Member, patch: MemberChange): string[] {
  const target = member as Record<string, unknown>;
  const changed: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const has = Object.prototype.hasOwnProperty.call(target, key);
    if (value === null) {
      if (has) {
        delete target[key];
        changed.push(key);
      }
      continue;
    }
    if (has && JSON.stringify(target[key]) === JSON.stringify(value)) continue;
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    changed.push(key);
  }
  return changed;
}

/**
 * The member record of `member`, just added to `team`'s roster (docs/format.md "Member records"):
 * the entry's agentId and joinedAt, then the draft's runtime and prompt, in that key order.
 */
export function memberRecordOf(team: string, member: Member, draft: MemberRecordDraft): MemberRecord {
  const r: MemberRecord = { v: MEMBER_RECORD_VERSION, team, name: member.name, agentId: member.agentId, joinedAt: member.joinedAt ?? 0, runtime: draft.runtime };
  if (draft.prompt !== undefined) r.prompt = draft.prompt;
  if (draft.approve !== undefined && draft.approve.length > 0) r.approve = [...draft.approve];
  if (draft.capabilities !== undefined && draft.capabilities.length > 0) r.capabilities = [...draft.capabilities];
  if (draft.identity !== undefined) r.identity = { ...draft.identity };
  return r;
}
