/**
 * The lead's side of the shutdown handshake: waiting for the teammate's answer to a
 * `shutdown_request`. The answer is the `shutdown_approved`/`shutdown_rejected` with the same
 * request id in the lead's inbox (read, never marked read: the lead's human or model still gets
 * it), or the member gone from the roster (approved and torn down). No answer within the timeout
 * means the request is forced by the caller.
 */
import { isMailroomError } from '../../errors.js';
import { findMember, leadName } from '../../core/members.js';
import { parseMessageText } from '../../protocol/structured.js';
import type { Store } from '../../store/store.js';
import { TeamSignals } from '../wake/signals.js';
import { Waiter } from '../wake/waiter.js';
import { deadline } from '../deadline.js';

/** Default time a teammate gets to answer a shutdown request (ms). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 30_000;

/** How a shutdown request was answered. */
export type ShutdownAnswer = { kind: 'approved' } | { kind: 'rejected'; reason: string } | { kind: 'timeout' };

/** Input of {@link awaitShutdownAnswer}. */
export interface AwaitAnswerOptions {
  store: Store;
  team: string;
  /** The teammate asked to shut down. */
  name: string;
  requestId: string;
  timeoutMs: number;
  /** Shared hints (else a watch is opened for the wait). */
  signals?: TeamSignals;
  /** Stops waiting early (the answer is then `timeout`). */
  signal?: AbortSignal;
}

/** Waits for the answer to `requestId` (or the timeout, or `signal`). */
export async function awaitShutdownAnswer(options: AwaitAnswerOptions): Promise<ShutdownAnswer> {
  const own = options.signals ? undefined : await TeamSignals.open(options.store, options.team, { pollMs: 500 });
  const config = await options.store.readConfig(options.team);
  const waiter = new Waiter<ShutdownAnswer>(options.signals ?? own!, leadName(config), false);
  const timeout = deadline(options.timeoutMs, options.signal);
  try {
    return (await waiter.next(() => findAnswer(options, leadName(config)), timeout.signal)) ?? { kind: 'timeout' };
  } finally {
    timeout.dispose();
    waiter.close();
    await own?.close();
  }
}

async function findAnswer(o: AwaitAnswerOptions, lead: string): Promise<ShutdownAnswer | undefined> {
  for (const entry of await o.store.readInbox(o.team, lead)) {
    const parsed = parseMessageText(entry.text);
    if (parsed.kind !== 'structured' || !('requestId' in parsed.message) || parsed.message.requestId !== o.requestId) continue;
    if (parsed.message.type === 'shutdown_approved') return { kind: 'approved' };
    if (parsed.message.type === 'shutdown_rejected') return { kind: 'rejected', reason: parsed.message.reason };
  }
  return (await isGone(o)) ? { kind: 'approved' } : undefined;
}

async function isGone(o: AwaitAnswerOptions): Promise<boolean> {
  try {
    return findMember(await o.store.readConfig(o.team), o.name) === undefined;
  } catch (err) {
    if (isMailroomError(err, 'TEAM_NOT_FOUND')) return true;
    throw err;
  }
}
