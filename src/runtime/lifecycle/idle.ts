/**
 * The `idle_notification` a teammate sends its lead after every turn (reference §4, §7.3):
 * `idleReason` available (or failed after a crash, with `completedStatus: "failed"` and a
 * `failureReason`), `summary` of its last direct message as `[to <name>] <summary or first 80
 * chars>`, and `completedTaskId`/`completedStatus` when it finished a task in the turn.
 */
import { sendStructured } from '../../core/messages.js';
import type { StoreRef } from '../../core/context.js';
import type { TurnOutcome } from '../turn.js';

/** The idle_notification fields for a turn's outcome (without from/timestamp/type). */
export function idleFields(outcome: TurnOutcome): Record<string, string> {
  const fields: Record<string, string> = { idleReason: outcome.error === undefined ? 'available' : 'failed' };
  const direct = outcome.record.lastDirect;
  if (direct) fields.summary = `[to ${direct.to}] ${direct.summary?.trim() || firstChars(direct.text, 80)}`;
  const task = outcome.record.finishedTask;
  if (task) {
    fields.completedTaskId = task.id;
    fields.completedStatus = task.status;
    if (task.failureReason) fields.failureReason = task.failureReason;
  }
  if (outcome.error !== undefined) {
    fields.completedStatus = 'failed';
    fields.failureReason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
  }
  return fields;
}

/** Sends the idle notification for `outcome` from `name` to `lead`. */
export async function sendIdleNotification(store: StoreRef, team: string, name: string, lead: string, outcome: TurnOutcome): Promise<void> {
  await sendStructured({ root: store, team, from: name, to: lead, message: { type: 'idle_notification', ...idleFields(outcome) } });
}

function firstChars(text: string, n: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}
