/**
 * Concurrent appends of one process share script calls (issue 24 item 3): appends to one team
 * issued in the same tick, by the same actor, without an idempotency key of their own and without
 * an injected clock, go to the server as ONE append-messages call (one round trip, one script run,
 * one PUBLISH per inbox instead of one per append). Eight writers awaiting one append each thus
 * cost one call per round instead of eight.
 *
 * Each caller still gets its own transition: its messages and their events, split from the
 * combined reply in order (the script stores and journals messages in the order given). A combined
 * call that the server refuses (an unknown recipient in one of the appends: nothing was written)
 * is run again append by append, so each caller gets its own answer and one bad append does not
 * fail the others; one whose connection failed fails every caller with STORE_UNAVAILABLE (it may
 * have gone through, as a single append may). Appends with their own idempotency key run alone: a key names one call.
 */
import { MailroomError } from '../../errors.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import type { AppendOptions, AppendResult, OutgoingMessage, StoredMessage, Transition } from '../team-store.js';

/** Runs one append-messages call (inboxes.ts `appendMessages`). */
export type AppendRunner = (team: string, messages: readonly OutgoingMessage[], options: AppendOptions) => Promise<Transition<AppendResult>>;

interface Waiting {
  messages: readonly OutgoingMessage[];
  options: AppendOptions;
  resolve(value: Transition<AppendResult>): void;
  reject(err: unknown): void;
}

/** At most this many messages go in one combined call (the rest wait for the next tick's call). */
const MAX_MESSAGES = 256;

/** Combines same-tick appends (see the module comment). */
export class AppendBatcher {
  private readonly queues = new Map<string, Waiting[]>();

  constructor(private readonly run: AppendRunner) {}

  /** Appends `messages` like {@link AppendRunner}, sharing a call with same-tick appends when it may. */
  append(team: string, messages: readonly OutgoingMessage[], options: AppendOptions = {}): Promise<Transition<AppendResult>> {
    if (messages.length === 0 || options.idempotencyKey !== undefined || options.now !== undefined) return this.run(team, messages, options);
    const key = `${team}\0${options.actor ?? ''}`;
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(key);
      if (!queue) {
        queue = [];
        this.queues.set(key, queue);
        process.nextTick(() => this.flush(key, team));
      }
      queue.push({ messages, options, resolve, reject });
    });
  }

  private flush(key: string, team: string): void {
    const queue = this.queues.get(key) ?? [];
    this.queues.delete(key);
    while (queue.length > 0) {
      const batch: Waiting[] = [];
      let count = 0;
      while (queue.length > 0 && (batch.length === 0 || count + queue[0]!.messages.length <= MAX_MESSAGES)) {
        const next = queue.shift()!;
        batch.push(next);
        count += next.messages.length;
      }
      void this.runBatch(team, batch);
    }
  }

  private async runBatch(team: string, batch: Waiting[]): Promise<void> {
    if (batch.length === 1) {
      const only = batch[0]!;
      return this.run(team, only.messages, only.options).then(only.resolve, only.reject);
    }
    let combined: Transition<AppendResult>;
    try {
      combined = await this.run(team, batch.flatMap((w) => w.messages), { actor: batch[0]!.options.actor });
    } catch (err) {
      // The connection failed (after its retry): the combined append may have gone through, so
      // each caller gets that error, as it would have alone. Any other failure is a refusal, of
      // which nothing was written: each append on its own, for its own answer.
      if (!(err instanceof MailroomError) || err.code === 'STORE_UNAVAILABLE' || err.code === 'INTERNAL') {
        for (const w of batch) w.reject(err);
        return;
      }
      for (const w of batch) this.run(team, w.messages, w.options).then(w.resolve, w.reject);
      return;
    }
    const parts = split(batch, combined);
    batch.forEach((w, i) => w.resolve(parts[i]!));
  }
}

/**
 * The combined reply cut back into one transition per append, in order. The script returns one
 * stored message per message given, and journals one event per message it stored anew, in the same
 * order; a message whose msg_id was in the inbox already, or earlier in the combined call, got none.
 * So each event goes to the first message of the call that carries its recipient and msg_id.
 */
function split(batch: readonly Waiting[], combined: Transition<AppendResult>): Transition<AppendResult>[] {
  const stored = combined.value.messages;
  const events = combined.events;
  const seen = new Set<string>();
  let at = 0;
  let next = 0;
  return batch.map((w) => {
    const messages = stored.slice(at, at + w.messages.length);
    at += w.messages.length;
    const own: TeamEventRecord[] = [];
    for (const m of messages) {
      const id = m.entry.msg_id;
      const key = id === undefined ? undefined : `${m.to}\0${id}`;
      const e = events[next];
      if (e !== undefined && (key === undefined || !seen.has(key)) && isEventOf(e, m)) {
        own.push(e);
        next++;
      }
      if (key !== undefined) seen.add(key);
    }
    return { value: { messages, replayed: false }, events: own };
  });
}

/** Whether `e` is the `message` event of stored message `m`. */
function isEventOf(e: TeamEventRecord, m: StoredMessage): boolean {
  return e.kind === 'message' && e.to === m.to && e.entry.msg_id === m.entry.msg_id && e.entry.text === m.entry.text;
}
