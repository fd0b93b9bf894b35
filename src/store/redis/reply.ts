/**
 * Script replies (`{ "ok", value, events }`, `{ "err", code, details }`, `{ "retry" }`) and the
 * errors they stand for, with messages that say what to do.
 */
import { MailroomError, type ErrorCode } from '../../errors.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import { claimLost, readerFenced } from '../../domain/reader-claims.js';
import { capabilityRefusal } from '../../domain/task-claim.js';
import type { Task } from '../../protocol/task.js';
import type { ReaderHolder } from '../team-store.js';
import { decodeRows, type StreamRow } from './stream-codec.js';

/** A successful reply: the script's value and the events it journalled. */
export interface OkReply {
  value: unknown;
  events: TeamEventRecord[];
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
  if (raw[0] === 'ok') return { kind: 'ok', ok: { value: raw[1], events: decodeRows((raw[2] as StreamRow[] | undefined) ?? []) } };
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
  /** Roster names, for MEMBER_NOT_FOUND messages. */
  members?: readonly string[] | undefined;
}

const REASONS: Partial<Record<string, string>> = {
  TASK_ALREADY_CLAIMED: 'already_claimed',
  TASK_ALREADY_RESOLVED: 'already_resolved',
  TASK_BLOCKED: 'blocked',
  AGENT_BUSY: 'agent_busy',
  MISSING_CAPABILITY: 'missing_capability',
};

/** The MailroomError a refusal stands for. */
export function refusalError(r: Refusal, c: ErrorContext): MailroomError {
  const d = r.details;
  const ids = (list: readonly string[]) => list.map((id) => `#${id}`).join(', ');
  const reason = REASONS[r.code];
  const withReason = (message: string, details: Record<string, unknown>) =>
    new MailroomError(r.code as ErrorCode, reason ? `${message} (reason: ${reason})` : message, { details: { team: c.team, ...(reason ? { reason } : {}), ...details } });
  switch (r.code) {
    case 'TEAM_NOT_FOUND':
      return new MailroomError('TEAM_NOT_FOUND', `Team "${c.team}" not found in the Redis store at ${c.location}. List teams with \`mailroom team list\`, or create it with \`mailroom team create ${c.team}\`.`, { details: { team: c.team } });
    case 'TEAM_EXISTS':
      return new MailroomError('TEAM_EXISTS', `Team "${c.team}" already exists in the Redis store at ${c.location}. Pick another name, or delete it first with \`mailroom team delete ${c.team}\`.`, { details: { team: c.team } });
    case 'MEMBER_NOT_FOUND': {
      const name = d[0] ?? c.who ?? '';
      const members = c.members ?? [];
      return new MailroomError('MEMBER_NOT_FOUND', `No member named "${name}" in team "${c.team}". Members: ${members.join(', ') || '(none)'}.`, { details: { team: c.team, name, members } });
    }
    case 'MEMBER_EXISTS':
      return new MailroomError('MEMBER_EXISTS', `Team "${c.team}" already has a member named "${d[0]}". Pick another name.`, { details: { team: c.team, name: d[0] } });
    case 'TASK_NOT_FOUND':
      return new MailroomError('TASK_NOT_FOUND', `Task #${d[0]} not found in team "${c.team}". List tasks with \`mailroom task list\`.`, { details: { team: c.team, id: d[0] } });
    case 'TASK_ALREADY_CLAIMED':
      return withReason(`Task #${d[0]} is already claimed by ${d[1]}.`, { id: d[0], as: c.who, owner: d[1] });
    case 'TASK_ALREADY_RESOLVED':
      return withReason(`Task #${d[0]} is already completed.`, { id: d[0], as: c.who });
    case 'TASK_BLOCKED':
      return withReason(`Task #${d[0]} is blocked by ${ids(d.slice(1))}, not completed yet. Complete ${d.length > 2 ? 'them' : 'it'} first.`, { id: d[0], as: c.who, blockedBy: d.slice(1) });
    case 'AGENT_BUSY':
      return withReason(`${c.who} already owns open task ${ids(d)}; finish it before claiming another.`, { as: c.who, owned: d });
    case 'MISSING_CAPABILITY': {
      // The domain's own refusal (src/domain/task-claim.ts), so both backends word it alike.
      const split = (csv: string | undefined) => (csv ? csv.split(',') : []);
      const task = { id: d[0] ?? '', metadata: { requires: split(d[1]) } } as unknown as Task;
      return capabilityRefusal(c.team, task, c.who ?? '', split(d[2])) ?? new MailroomError('INTERNAL', `Task #${d[0]}: a capability refusal with nothing missing.`);
    }
    case 'TASK_CYCLE': {
      const cycle = d.slice(2);
      return new MailroomError('TASK_CYCLE', `Making #${d[0]} blocked by #${d[1]} would create a dependency cycle: ${cycle.map((id) => `#${id}`).join(' → ')} (each blocked by the next). Nothing was changed.`, { details: { team: c.team, cycle } });
    }
    case 'TASK_CONFLICT':
      return new MailroomError('TASK_CONFLICT', `Task #${d[0]} changed meanwhile (now ${d[1]}${d[2] ? `, owner ${d[2]}` : ', no owner'}): read it again and retry.`, { details: { team: c.team, id: d[0], status: d[1], owner: d[2] === '' ? undefined : d[2] } });
    case 'TEAMMATE_RUNNING': {
      const f = fieldsOf(d);
      const holder = f.has('host') ? { kind: (f.get('kind') ?? 'agent') as ReaderHolder['kind'], host: f.get('host')!, pid: Number(f.get('pid')), startedAt: Number(f.get('startedAt')) } : undefined;
      return claimLost(c.team, c.who ?? '', holder);
    }
    case 'READER_FENCED': {
      const f = fieldsOf(d);
      const holder = f.has('host') ? { kind: (f.get('kind') ?? 'agent') as ReaderHolder['kind'], host: f.get('host')!, pid: Number(f.get('pid')), startedAt: Number(f.get('startedAt')) } : undefined;
      return readerFenced(c.team, c.who ?? '', holder);
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
