/**
 * Failed turns of the members of a `mailroom run`, as the lead learns of them: every turn a
 * teammate's model call ended in an error is followed by an `idle_notification` with
 * `idleReason: "failed"` and the `failureReason` (runtime/lifecycle/idle.ts). The run counts them
 * per member for the report and tells the caller of each one.
 */
import type { InboxEntry } from '../../protocol/inbox.js';
import { parseMessageText } from '../../protocol/structured.js';

/** One failed turn: who, and the reason (the model error's message). */
export interface TurnFailure {
  name: string;
  reason: string;
}

/** Failed turns per member. */
export class TurnFailures {
  private readonly byName = new Map<string, { count: number; last: string }>();

  /** Records `entry` when it reports a failed turn, and returns that failure; else undefined. */
  note(entry: InboxEntry): TurnFailure | undefined {
    const parsed = parseMessageText(entry.text);
    if (parsed.kind !== 'structured' || parsed.message.type !== 'idle_notification' || parsed.message.idleReason !== 'failed') return undefined;
    const reason = parsed.message.failureReason ?? 'no reason given';
    const seen = this.byName.get(entry.from);
    this.byName.set(entry.from, { count: (seen?.count ?? 0) + 1, last: reason });
    return { name: entry.from, reason };
  }

  /** How many turns of `name` failed, and the last reason (undefined when none did). */
  of(name: string): { failedTurns: number; lastFailure?: string } {
    const seen = this.byName.get(name);
    return seen ? { failedTurns: seen.count, lastFailure: seen.last } : { failedTurns: 0 };
  }
}
