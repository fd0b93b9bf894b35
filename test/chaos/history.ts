/**
 * The chaos suite's history (issue 21 item 8), after Jepsen's: every client records each operation
 * as an `invoke` before it starts and one completion after — `ok` (it happened), `fail` (it
 * definitely did not: the store refused it), or `info` (unknown: a timeout, a dropped connection,
 * the process killed — it may or may not have taken effect). Faults the nemesis injects are `info`
 * ops of the process `nemesis`. A client that is killed -9 leaves its last invoke without a
 * completion; the checker treats that as `info`.
 *
 * Times are epoch ms of one machine's clock (every process of a run is on this machine), so real
 * time orders operations across processes. Clients write one JSON object per line (NDJSON).
 */

/** What a completion says. */
export type OpType = 'invoke' | 'ok' | 'fail' | 'info';

/** The operations clients perform, and what the nemesis does. */
export type OpName =
  /** A message sent: `{ msgId, to }`. */
  | 'send'
  /** Messages handed to a consumer of `member`: ok `{ member, msgIds, redelivered }` (ids the surface marked as a redelivery). */
  | 'take'
  /** The consumer acknowledges what it was handed: `{ member, msgIds }`. */
  | 'ack'
  /** A reader claim of `member` taken: `{ member }`. */
  | 'read-claim'
  /** A heartbeat of `member`'s reader claim: `{ member }`. */
  | 'beat'
  /** A task claimed: ok `{ task, owner }`. */
  | 'claim'
  /** An owner's write about its task (metadata, outputs): `{ task, owner }`. */
  | 'write'
  /** An owner completes its task: `{ task, owner }`. */
  | 'complete'
  /** A dead-member sweep: ok `{ dead: [{ member, tasks }] }` (the members it declared dead and the tasks it took back). */
  | 'sweep'
  /** The state after the run: ok `{ member, unread }` (msg_ids still unread in the member's inbox, for a consumer to get). */
  | 'final'
  /** A fault: `{ fault, target }`. */
  | 'nemesis';

/** One line of a history. */
export interface Op {
  /** Who: a client id (one per process incarnation), or `nemesis`. */
  process: string;
  type: OpType;
  f: OpName;
  /** Epoch ms. */
  time: number;
  value: OpValue;
  /** On a fail or info: the error code seen (e.g. TASK_FENCED, STORE_UNAVAILABLE). */
  error?: string | undefined;
}

/** The value of an op (fields by op name; see {@link OpName}). */
export interface OpValue {
  msgId?: string;
  to?: string;
  member?: string;
  msgIds?: string[];
  redelivered?: string[];
  unread?: string[];
  task?: string;
  owner?: string;
  dead?: Array<{ member: string; tasks: string[] }>;
  fault?: string;
  target?: string;
}

/** Parses NDJSON lines (a torn last line, from a kill -9 mid-write, is dropped). */
export function parseHistory(text: string): Op[] {
  const ops: Op[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      ops.push(JSON.parse(line) as Op);
    } catch {
      // a torn line
    }
  }
  return ops;
}
