/**
 * Script replies (`{ "ok", value, events }`, `{ "err", code, details }`, `{ "retry" }`) and the
 * errors they stand for: a refusal of a domain rule is worded by the domain's own error builder
 * (src/domain/), so both backends say the same (TEAM_NOT_FOUND and TEAM_EXISTS name the Redis store
 * as their location).
 */
import { MailroomError } from '../../errors.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import { claimLost, readerFenced } from '../../domain/reader-claims.js';
import { agentBusy, alreadyClaimed, alreadyResolved, capabilityRefusal, claimBlocked } from '../../domain/task-claim.js';
import { taskCycle, taskNotFound } from '../../domain/task-board.js';
import { taskBlocked, taskConflict } from '../../domain/task-patch.js';
import { memberExists, memberNotFound } from '../../domain/roster.js';
import { teamExists, teamNotFound } from '../../domain/team-errors.js';
import { taskFenced } from '../../domain/task-fence.js';
import { viewMoved } from '../../domain/view-moved.js';
import type { Task } from '../../protocol/task.js';
import type { ReaderHolder } from '../team-store.js';
import { decodeRows, type StreamRow } from './stream-codec.js';

/** A successful reply: the script's value and the events it journalled. */
export interface OkReply {
  value: unknown;
  events: TeamEventRecord[];
  /**
   * A read-only script answered for a team that does not exist (its empty value, marked 'absent'
   * as a fourth element): the store must not take the team for one it has seen (TEAM_LOST).
   */
  absent?: true;
}

/** What a refused script said: its code and detail strings. */
export interface Refusal {
  code: string;
  details: string[];
}

/** A reply taken apart; `retry` means a compare-and-set lost (recompute and try again). */
export type Reply = { kind: 'ok'; ok: OkReply } | { kind: 'err'; err: Refusal } | { kind: 'retry' };

/** Parses a raw reply. @throws INTERNAL for a reply no script makes */
export function parseReply(raw: unknown): Reply {
  if (!Array.isArray(raw) || typeof raw[0] !== 'string') throw internal(raw);
  if (raw[0] === 'retry') return { kind: 'retry' };
  if (raw[0] === 'err') return { kind: 'err', err: { code: String(raw[1]), details: (raw[2] as unknown[] | undefined ?? []).map(String) } };
  if (raw[0] === 'ok') {
    const ok: OkReply = { value: raw[1], events: decodeRows((raw[2] as StreamRow[] | undefined) ?? [], true) };
    if (raw[3] === 'absent') ok.absent = true;
    return { kind: 'ok', ok };
  }
  throw internal(raw);
}

function internal(raw: unknown): MailroomError {
  return new MailroomError('INTERNAL', `Unexpected reply from a mailroom Redis script: ${JSON.stringify(raw)?.slice(0, 200)}`);
}

/** Context for error messages. */
export interface ErrorContext {
  team: string;
  location: string;
  /** The claimant (claims) or the actor. */
  who?: string | undefined;
  /** Roster names, for MEMBER_NOT_FOUND and MEMBER_EXISTS messages. */
  members?: readonly string[] | undefined;
  /** Set for a claim: its TASK_BLOCKED carries the claim's reason (`blocked`), a status change's does not. */
  claim?: boolean | undefined;
}

/** The task a refusal names, as far as its detail strings tell (for the domain's error builders). */
function taskOf(id: string | undefined, fields: Partial<Task> = {}): Task {
  return { id: id ?? '', ...fields } as unknown as Task;
}

/** The MailroomError a refusal stands for, worded by the domain's builders where the rule is the domain's. */
export function refusalError(r: Refusal, c: ErrorContext): MailroomError {
  const d = r.details;
  const who = c.who ?? '';
  switch (r.code) {
    case 'TEAM_NOT_FOUND':
      return teamNotFound(c.team, `the Redis store at ${c.location}`);
    case 'TEAM_EXISTS':
      return teamExists(c.team, `the Redis store at ${c.location}`);
    case 'MEMBER_NOT_FOUND':
      return memberNotFound(c.team, d[0] ?? who, c.members ?? []);
    case 'MEMBER_EXISTS':
      return memberExists(c.team, who || (d[0] ?? ''), d[0] ?? '', c.members ?? []);
    case 'TASK_NOT_FOUND':
      return taskNotFound(c.team, d[0] ?? '');
    case 'TASK_ALREADY_CLAIMED':
      return alreadyClaimed(c.team, taskOf(d[0], d[2] === 'completed' ? { owner: d[1], status: 'completed' } : { owner: d[1] }), who);
    case 'TASK_ALREADY_RESOLVED':
      return alreadyResolved(c.team, taskOf(d[0], { status: 'completed' }), who);
    case 'TASK_BLOCKED':
      return c.claim ? claimBlocked(c.team, taskOf(d[0]), who, d.slice(1)) : taskBlocked(c.team, d[0] ?? '', d.slice(1));
    case 'AGENT_BUSY':
      return agentBusy(c.team, who, d);
    case 'MISSING_CAPABILITY': {
      const split = (csv: string | undefined) => (csv ? csv.split(',') : []);
      return capabilityRefusal(c.team, taskOf(d[0], { metadata: { requires: split(d[1]) } }), who, split(d[2])) ?? new MailroomError('INTERNAL', `Task #${d[0]}: a capability refusal with nothing missing.`);
    }
    case 'TASK_CYCLE':
      return taskCycle(c.team, d[0] ?? '', d[1] ?? '', d.slice(2));
    case 'VIEW_MOVED':
      return viewMoved(c.team);
    case 'TASK_CONFLICT':
      return taskConflict(c.team, d[0] ?? '', d[1] ?? '', d[2] ? d[2] : null);
    case 'TASK_FENCED':
      return taskFenced(c.team, d[0] ?? '', who, Number(d[1]), Number(d[2]), d[3] ? d[3] : undefined);
    case 'TEAMMATE_RUNNING': {
      const f = fieldsOf(d);
      const holder = f.has('host') ? { kind: (f.get('kind') ?? 'agent') as ReaderHolder['kind'], host: f.get('host')!, pid: Number(f.get('pid')), startedAt: Number(f.get('startedAt')) } : undefined;
      return claimLost(c.team, who, holder);
    }
    case 'READER_FENCED': {
      const f = fieldsOf(d);
      const holder = f.has('host') ? { kind: (f.get('kind') ?? 'agent') as ReaderHolder['kind'], host: f.get('host')!, pid: Number(f.get('pid')), startedAt: Number(f.get('startedAt')) } : undefined;
      return readerFenced(c.team, who, holder);
    }
    default:
      return new MailroomError('INTERNAL', `A mailroom Redis script refused with an unknown code ${r.code}.`, { details: { code: r.code, details: d } });
  }
}

/** A flat field/value list as a map. */
export function fieldsOf(flat: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) m.set(flat[i]!, flat[i + 1]!);
  return m;
}
