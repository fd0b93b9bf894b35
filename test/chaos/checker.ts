/**
 * The chaos suite's checker (issue 21 item 8): a pure function from a whole history
 * (./history.ts) to the violations of each invariant. After Jepsen's checkers (Knossos, Elle):
 * every operation is an interval [invoke, completion] in real time; an `info` completion, or
 * none (the process was killed), is indeterminate — it may have happened at any point after its
 * invoke, or never — and the checker only reports what is certain whatever those did. Each
 * client runs one operation of a kind at a time, so an invoke is paired with the next completion
 * of the same process and op name.
 *
 * Invariants (names are stable; the CI test enables them by name):
 * - `lost`: no acknowledged message lost — every `send` that returned ok was handed to a consumer
 *   (`take` ok) or is still unread at the end (`final`).
 * - `duplicate`: none delivered to a consumer twice — a msg_id taken again for the same member
 *   must be marked by the surface as a redelivery (`redelivered`).
 * - `stale-write`: no task write accepted from a non-current owner — a `write` or `complete` that
 *   returned ok, invoked after another process's claim of the task (another member's, or a new
 *   process of the same member's: each claim is a new fencing token) or a sweep that took it back
 *   had completed, and not preceded by a new claim of the writing process.
 * - `two-readers`: at most one live reader per member — no `take`, `ack` or `beat` of a member's
 *   inbox accepted from a process after another process's reader claim of that member had
 *   completed, later than the first process's own claim.
 * - `dead-while-beating`: no member declared dead while its beats were landing — a `sweep` that
 *   declared a member dead although one of its processes had a beat land before the sweep began
 *   and was neither stopped nor killed by the nemesis (nor ended) from that beat until the sweep
 *   completed. (A stall of the store makes beats late, not the member dead: issue 21 item 3.)
 */
import type { Op, OpName, OpValue } from './history.js';

/** Every invariant, by name. */
export const INVARIANTS = ['lost', 'duplicate', 'stale-write', 'two-readers', 'dead-while-beating'] as const;
/** An invariant's name. */
export type Invariant = (typeof INVARIANTS)[number];

/** One operation as an interval. `end` is Infinity when it never completed (killed). */
export interface Interval {
  process: string;
  f: OpName;
  type: 'ok' | 'fail' | 'info';
  inv: number;
  end: number;
  value: OpValue;
  error?: string | undefined;
}

/** One violation: which invariant, a sentence, and the operations that show it. */
export interface Violation {
  invariant: Invariant;
  message: string;
  ops: Interval[];
}

/** The checker's verdict. */
export interface CheckResult {
  /** Violations per invariant (every invariant has an entry). */
  violations: Record<Invariant, Violation[]>;
  /** Operations by name and outcome, e.g. `send:ok`. */
  counts: Record<string, number>;
  /** Faults by kind (`nemesis` ops). */
  faults: Record<string, number>;
}

/** Pairs invokes with their completions (per process and op name, in time order). */
export function intervals(history: readonly Op[]): Interval[] {
  const sorted = [...history].sort((a, b) => a.time - b.time);
  const open = new Map<string, Op>();
  const out: Interval[] = [];
  for (const op of sorted) {
    const key = `${op.process}\u0000${op.f}`;
    if (op.type === 'invoke') {
      const dangling = open.get(key);
      if (dangling) out.push(toInterval(dangling, 'info', Infinity, dangling.value));
      open.set(key, op);
      continue;
    }
    const inv = open.get(key);
    open.delete(key);
    // A completion without an invoke (nemesis, final) is an instant.
    out.push(toInterval(inv ?? op, op.type, op.time, { ...(inv?.value ?? {}), ...op.value }, op.error));
  }
  for (const dangling of open.values()) out.push(toInterval(dangling, 'info', Infinity, dangling.value));
  return out.sort((a, b) => a.inv - b.inv);
}

function toInterval(op: Op, type: Interval['type'], end: number, value: OpValue, error?: string): Interval {
  return { process: op.process, f: op.f, type, inv: op.time, end, value, ...(error !== undefined ? { error } : {}) };
}

/** Checks every invariant over `history`. */
export function check(history: readonly Op[]): CheckResult {
  const all = intervals(history);
  const ok = all.filter((i) => i.type === 'ok');
  const violations = {
    lost: lost(ok),
    duplicate: duplicates(ok),
    'stale-write': staleWrites(ok),
    'two-readers': twoReaders(ok),
    'dead-while-beating': deadWhileBeating(ok, all),
  } satisfies Record<Invariant, Violation[]>;
  const counts: Record<string, number> = {};
  const faults: Record<string, number> = {};
  for (const i of all) {
    if (i.f === 'nemesis') faults[i.value.fault ?? '?'] = (faults[i.value.fault ?? '?'] ?? 0) + 1;
    else counts[`${i.f}:${i.type}`] = (counts[`${i.f}:${i.type}`] ?? 0) + 1;
  }
  return { violations, counts, faults };
}

function lost(ok: readonly Interval[]): Violation[] {
  const seen = new Set<string>();
  for (const i of ok) {
    if (i.f === 'take') for (const id of i.value.msgIds ?? []) seen.add(id);
    if (i.f === 'final') for (const id of i.value.unread ?? []) seen.add(id);
  }
  return ok
    .filter((i) => i.f === 'send' && i.value.msgId !== undefined && !seen.has(i.value.msgId))
    .map((i) => ({ invariant: 'lost' as const, message: `message ${i.value.msgId} to ${i.value.to} was acknowledged to ${i.process} and never handed to a consumer nor left unread`, ops: [i] }));
}

function duplicates(ok: readonly Interval[]): Violation[] {
  const out: Violation[] = [];
  const first = new Map<string, Interval>();
  for (const take of ok.filter((i) => i.f === 'take').sort((a, b) => a.end - b.end)) {
    const marked = new Set(take.value.redelivered ?? []);
    for (const id of take.value.msgIds ?? []) {
      const key = `${take.value.member}\u0000${id}`;
      const earlier = first.get(key);
      if (!earlier) first.set(key, take);
      else if (!marked.has(id)) out.push({ invariant: 'duplicate', message: `message ${id} was handed to ${take.value.member} twice (${earlier.process}, then ${take.process}) without being marked a redelivery`, ops: [earlier, take] });
    }
  }
  return out;
}

/**
 * The events that end a writer process's hold of a task: a claim of it by another process (another
 * member, or a new process of the same member: each claim issues a new fencing token), or a sweep
 * taking it back from the writer's member.
 */
function supersedes(i: Interval, task: string, w: Interval): boolean {
  if (i.f === 'claim') return i.value.task === task && i.process !== w.process;
  if (i.f === 'sweep') return (i.value.dead ?? []).some((d) => d.member === w.value.owner && d.tasks.includes(task));
  return false;
}

function staleWrites(ok: readonly Interval[]): Violation[] {
  const out: Violation[] = [];
  for (const w of ok.filter((i) => i.f === 'write' || i.f === 'complete')) {
    const task = w.value.task;
    const owner = w.value.owner;
    if (task === undefined || owner === undefined) continue;
    const lostBy = ok.filter((e) => e.end < w.inv && supersedes(e, task, w));
    const stale = lostBy.find((e) => !ok.some((c) => c.f === 'claim' && c.value.task === task && c.process === w.process && c.end > e.inv && c.inv < w.end));
    if (stale) out.push({ invariant: 'stale-write', message: `${w.f} of task #${task} by ${owner} (${w.process}) was accepted after ${stale.f === 'claim' ? `${stale.value.owner} (${stale.process}) claimed it` : 'a sweep took it back'}`, ops: [stale, w] });
  }
  return out;
}

function twoReaders(ok: readonly Interval[]): Violation[] {
  const out: Violation[] = [];
  const claims = ok.filter((i) => i.f === 'read-claim');
  for (const o of ok.filter((i) => i.f === 'take' || i.f === 'ack' || i.f === 'beat')) {
    const member = o.value.member;
    const own = claims.filter((c) => c.process === o.process && c.value.member === member && c.end < o.inv).at(-1);
    if (!own) continue;
    const other = claims.find((c) => c.process !== o.process && c.value.member === member && c.inv > own.end && c.end < o.inv);
    if (other) out.push({ invariant: 'two-readers', message: `${o.f} on ${member}'s inbox accepted from ${o.process} after ${other.process} had taken the reader claim over`, ops: [own, other, o] });
  }
  return out;
}

function deadWhileBeating(ok: readonly Interval[], all: readonly Interval[]): Violation[] {
  const out: Violation[] = [];
  const faults = all.filter((i) => i.f === 'nemesis' && ['kill', 'stop', 'end'].includes(i.value.fault ?? ''));
  for (const s of ok.filter((i) => i.f === 'sweep')) {
    for (const d of s.value.dead ?? []) {
      const beats = ok.filter((b) => b.f === 'beat' && b.value.member === d.member && b.end < s.inv);
      const alive = beats.find((b) => !faults.some((f) => f.value.target === b.process && f.inv >= b.inv && f.inv <= s.end));
      if (alive) out.push({ invariant: 'dead-while-beating', message: `${d.member} was declared dead by ${s.process} while ${alive.process} was running and its beats landed (last at ${alive.end})`, ops: [alive, s] });
    }
  }
  return out;
}
