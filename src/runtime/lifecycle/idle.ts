/**
 * The `idle_notification` a teammate sends its lead after every turn (reference §4, §7.3):
 * `idleReason` available (or failed after a crash, with `completedStatus: "failed"` and a
 * `failureReason`), `summary` of its last direct message as `[to <name>] <summary or first 80
 * chars>`, `completedTaskId`/`completedStatus` when it finished a task in the turn, and — as
 * Claude Code 2.1.332 writes it — `result`: the turn's final reply text, at most
 * {@link IDLE_RESULT_MAX} characters, so a lead sees what a teammate said even when it did not send
 * it (#82687).
 */
import { sendStructured } from '../../core/messages/send.js';
import type { SenderView } from '../../core/teams/sender-view.js';
import type { StoreRef } from '../../core/context.js';
import type { TurnOutcome } from '../turn.js';

/** The longest `result` an idle notification carries (characters; Claude Code 2.1.332's cap, reference §4). */
export const IDLE_RESULT_MAX = 4000;

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
  const result = outcome.record.lastText;
  if (result) fields.result = result.length > IDLE_RESULT_MAX ? `${result.slice(0, IDLE_RESULT_MAX - 1)}…` : result;
  return fields;
}

/** Sends the idle notification for `outcome` from `name` to `lead` (under the teammate's kept view, when given). */
export async function sendIdleNotification(store: StoreRef, team: string, name: string, lead: string, outcome: TurnOutcome, senderView?: SenderView): Promise<void> {
  await sendStructured({ root: store, team, from: name, to: lead, message: { type: 'idle_notification', ...idleFields(outcome) }, senderView });
}

function firstChars(text: string, n: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}
