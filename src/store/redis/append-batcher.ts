/**
 * Concurrent appends of one process share script calls (issue 24 item 2), by group commit: per
 * team and actor, one append-messages call is in flight at a time, and the appends that arrive
 * meanwhile (or in the same tick as the first) go to the server together as the NEXT call (one
 * round trip, one script run, one PUBLISH per inbox instead of one per append). Eight writers
 * awaiting one append each thus cost one call per round instead of eight, whether they arrive in
 * one tick or spread over the round trip. A call carries one expected view stamp
 * (AppendOptions.expectViewStamp): appends made under different stamps go in different calls, in
 * arrival order; a VIEW_MOVED answer goes to every caller of the call (nothing was written). Appends with an idempotency key of their own or an
 * injected clock run alone (a key names one call; an instant is the caller's), at once.
 *
 * Each caller still gets its own transition: its messages and their events, cut from the combined
 * call by position (the script stores and journals messages in the order given and marks the rows
 * it journalled). A combined call that is refused (an unknown recipient in one of the appends, or
 * an entry the client cannot encode: INVALID_ARGUMENT before anything is sent; nothing was
 * written) is run again append by append, so each caller gets its own answer
 * and one bad append does not fail the others; one whose connection failed fails every caller with
 * STORE_UNAVAILABLE (it may have gone through, as a single append may), and so does a refusal of
 * the retry that followed a lost reply (STORE_FULL: the first try may have run; inboxes.ts
 * `mayHaveRun`), which is never run again append by append.
 */
import { MailroomError } from '../../errors.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import type { AppendOptions, AppendResult, OutgoingMessage, Transition } from '../team-store.js';
import { mayHaveRun, type AppendedRows } from './inboxes.js';

/** Runs one append-messages call (inboxes.ts `appendRows`). */
export type AppendRunner = (team: string, messages: readonly OutgoingMessage[], options: AppendOptions) => Promise<AppendedRows>;

interface Waiting {
  messages: readonly OutgoingMessage[];
  options: AppendOptions;
  resolve(value: Transition<AppendResult>): void;
  reject(err: unknown): void;
}

/** The appends of one team and actor: those waiting for the next call, and whether one is in flight. */
interface Lane {
  team: string;
  queue: Waiting[];
  busy: boolean;
}

/** At most this many messages go in one combined call (the rest wait for the next call). */
const MAX_MESSAGES = 256;

/** Combines concurrent appends (see the module comment). */
export class AppendBatcher {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly run: AppendRunner) {}

  /** Appends `messages` like {@link AppendRunner}, sharing a call with concurrent appends when it may. */
  append(team: string, messages: readonly OutgoingMessage[], options: AppendOptions = {}): Promise<Transition<AppendResult>> {
    if (messages.length === 0 || options.idempotencyKey !== undefined || options.now !== undefined) return this.run(team, messages, options).then(transition);
    const key = `${team}\0${options.actor ?? ''}`;
    return new Promise((resolve, reject) => {
      let lane = this.lanes.get(key);
      if (!lane) {
        lane = { team, queue: [], busy: false };
        this.lanes.set(key, lane);
      }
      // The first append of an idle lane waits for the rest of its tick; later ones for the call in flight.
      if (lane.queue.length === 0 && !lane.busy) process.nextTick(() => this.next(key));
      lane.queue.push({ messages, options, resolve, reject });
    });
  }

  /** Sends the lane's next call unless one is in flight; forgets an idle, empty lane. */
  private next(key: string): void {
    const lane = this.lanes.get(key);
    if (!lane || lane.busy) return;
    if (lane.queue.length === 0) {
      this.lanes.delete(key);
      return;
    }
    lane.busy = true;
    const after = (): void => {
      lane.busy = false;
      // After the callers' continuations (microtasks) have queued what they append next.
      process.nextTick(() => this.next(key));
    };
    // One append alone (a process with one append at a time): no combining to undo, so plain promise code.
    const sent = lane.queue.length === 1 ? this.runOne(lane.team, lane.queue.pop()!) : this.runBatch(lane.team, takeBatch(lane.queue));
    void sent.then(after, after);
  }

  /** One append's call; its caller gets the answer. Never rejects. */
  private runOne(team: string, w: Waiting): Promise<void> {
    let sent: Promise<AppendedRows>;
    try {
      sent = this.run(team, w.messages, w.options);
    } catch (err) {
      sent = Promise.reject(err);
    }
    return sent.then((rows) => w.resolve(transition(rows)), w.reject);
  }

  /** A combined call; each caller gets its part of the answer (plain promise code, the refusal path apart). Never rejects. */
  private runBatch(team: string, batch: readonly Waiting[]): Promise<void> {
    let sent: Promise<AppendedRows>;
    try {
      sent = this.run(team, batch.flatMap((w) => w.messages), { actor: batch[0]!.options.actor, expectViewStamp: batch[0]!.options.expectViewStamp });
    } catch (err) {
      sent = Promise.reject(err);
    }
    return sent.then(
      (combined) => {
        let at = 0;
        for (const w of batch) {
          const end = at + w.messages.length;
          w.resolve(transition({ messages: combined.messages.slice(at, end), events: combined.events.slice(at, end), replayed: false }));
          at = end;
        }
      },
      (err: unknown) => this.refused(team, batch, err),
    );
  }

  /** After a combined call failed: every caller gets the error, or each append runs on its own (see below). Never rejects. */
  private async refused(team: string, batch: readonly Waiting[], err: unknown): Promise<void> {
    // The connection failed (after its retry): the combined append may have gone through, so
    // each caller gets that error, as it would have alone. Any other failure is a refusal, of
    // which nothing was written: each append on its own, for its own answer.
    // So does a refusal of the retry after such a failure (the server full, OOM): the first try may
    // have run, and running each append again would store it twice.
    // VIEW_MOVED holds for every append of the call (all were made under its stamp): nothing written, each caller re-reads.
    if (!(err instanceof MailroomError) || err.code === 'STORE_UNAVAILABLE' || err.code === 'INTERNAL' || err.code === 'VIEW_MOVED' || mayHaveRun(err)) {
      for (const w of batch) w.reject(err);
      return;
    }
    await Promise.all(batch.map((w) => this.runOne(team, w)));
  }
}

/**
 * The next call's appends, taken from the front of `queue`: one call carries one expected view
 * stamp, so it takes the appends made under the first one's, in order (a later append under another
 * stamp waits for the next call, so each sender's order holds), up to {@link MAX_MESSAGES} messages
 * (at least one append).
 */
function takeBatch(queue: Waiting[]): Waiting[] {
  const batch: Waiting[] = [];
  let count = 0;
  const stamp = queue[0]!.options.expectViewStamp;
  while (queue.length > 0 && (batch.length === 0 || (count + queue[0]!.messages.length <= MAX_MESSAGES && queue[0]!.options.expectViewStamp === stamp))) {
    const w = queue.shift()!;
    batch.push(w);
    count += w.messages.length;
  }
  return batch;
}

/** The transition of one call's rows: its stored messages and the events of those it journalled. */
export function transition(rows: AppendedRows): Transition<AppendResult> {
  return { value: { messages: rows.messages, replayed: rows.replayed }, events: rows.events.filter((e): e is TeamEventRecord => e !== undefined) };
}
