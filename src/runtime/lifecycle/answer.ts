/**
 * The lead's side of the shutdown handshake (reference §7.4), written once for every caller —
 * `InProcessHost.stop` and `stopTeammate` (`mailroom team stop`): send the `shutdown_request`, then
 * wait for the answer. The answer is the `shutdown_approved`/`shutdown_rejected` with the same
 * request id in the lead's inbox (read, never marked read: the lead's human or model still gets
 * it), or the member gone from the roster (approved and torn down), or the teammate's runtime
 * ending. No answer within the timeout means the request is forced by the caller.
 *
 * Only an answer from the teammate asked counts (its entry's `from`, in every team), and in a
 * signed team only one that passes the readers' check (core/trust/verify.ts): a forged approval —
 * from anyone else, or unsigned or badly signed where the teammate signs — is ignored and
 * journalled as a refusal (core/members/shutdown-answer.ts), never taken as approval.
 */
import { isMailroomError } from '../../errors.js';
import { teamOf, type StoreRef } from '../../core/context.js';
import { TeamFeed } from '../../core/live/feed.js';
import { findMember, leadName } from '../../domain/roster.js';
import { requestShutdown } from '../../core/members/shutdown.js';
import { parseMessageText } from '../../protocol/structured.js';
import { AnswerCheck } from '../../core/members/shutdown-answer.js';
import { Waiter } from '../wake/waiter.js';
import { deadline } from '../deadline.js';

/** Default time a teammate gets to answer a shutdown request (ms). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 30_000;

/** How a shutdown request was answered. */
export type ShutdownAnswer = { kind: 'approved' } | { kind: 'rejected'; reason: string } | { kind: 'timeout' };

/** Input of {@link awaitShutdownAnswer}. */
export interface AwaitAnswerOptions {
  store: StoreRef;
  team: string;
  /** The teammate asked to shut down. */
  name: string;
  requestId: string;
  timeoutMs: number;
  /** The team's feed (else one is opened for the wait). */
  feed?: TeamFeed | undefined;
  /** Stops waiting early (the answer is then `timeout`). */
  signal?: AbortSignal | undefined;
  /** Settles when the teammate's runtime has stopped (an in-process host knows): counts as approved. */
  exited?: Promise<unknown> | undefined;
}

/** Waits for the answer to `requestId` (or the timeout, or `signal`). */
export async function awaitShutdownAnswer(options: AwaitAnswerOptions): Promise<ShutdownAnswer> {
  const own = options.feed ? undefined : await TeamFeed.open(options.store, options.team, { pollMs: 500 });
  const lead = leadName(await teamOf({ root: options.store }).readConfig(options.team));
  const waiter = new Waiter<ShutdownAnswer>(options.feed ?? own!, lead, false);
  const check = new AnswerCheck({ root: options.store, team: options.team }, lead, options.name);
  const done = new AbortController();
  const timeout = deadline(options.timeoutMs, options.signal, done.signal);
  try {
    const answered = waiter.next(() => findAnswer(options, lead, check), timeout.signal).then((a) => a ?? ({ kind: 'timeout' } as const));
    const exited = options.exited?.then((): ShutdownAnswer => ({ kind: 'approved' }), (): ShutdownAnswer => ({ kind: 'approved' }));
    return await (exited ? Promise.race([answered, exited]) : answered);
  } finally {
    done.abort();
    timeout.dispose();
    waiter.close();
    await own?.close();
  }
}

/** Input of {@link shutdownHandshake}. */
export interface HandshakeOptions extends Omit<AwaitAnswerOptions, 'requestId'> {
  /** Sent in the request. */
  reason?: string | undefined;
  /** Called once the request is sent, before the wait. */
  onSent?: (requestId: string) => void | Promise<void>;
}

/**
 * The handshake: sends `shutdown_request` from the lead to `name`, then waits for the answer.
 * @returns the request id and the answer
 * @throws INVALID_ARGUMENT (`name` is the lead), MEMBER_NOT_FOUND
 */
export async function shutdownHandshake(o: HandshakeOptions): Promise<{ requestId: string; answer: ShutdownAnswer }> {
  const { requestId } = await requestShutdown({ root: o.store, team: o.team, to: o.name, reason: o.reason });
  await o.onSent?.(requestId);
  return { requestId, answer: await awaitShutdownAnswer({ ...o, requestId }) };
}

async function findAnswer(o: AwaitAnswerOptions, lead: string, check: AnswerCheck): Promise<ShutdownAnswer | undefined> {
  for (const entry of await teamOf({ root: o.store }).readInbox(o.team, lead)) {
    const parsed = parseMessageText(entry.text);
    if (parsed.kind !== 'structured' || !('requestId' in parsed.message) || parsed.message.requestId !== o.requestId) continue;
    if (parsed.message.type !== 'shutdown_approved' && parsed.message.type !== 'shutdown_rejected') continue;
    if (!(await check.accepts(entry, parsed.message.type))) continue;
    if (parsed.message.type === 'shutdown_approved') return { kind: 'approved' };
    return { kind: 'rejected', reason: parsed.message.reason };
  }
  return (await isGone(o)) ? { kind: 'approved' } : undefined;
}

async function isGone(o: AwaitAnswerOptions): Promise<boolean> {
  try {
    return findMember(await teamOf({ root: o.store }).readConfig(o.team), o.name) === undefined;
  } catch (err) {
    if (isMailroomError(err, 'TEAM_NOT_FOUND')) return true;
    throw err;
  }
}
