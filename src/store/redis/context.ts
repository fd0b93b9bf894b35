/**
 * What every operation of the Redis store shares: the connection, running a script for a team
 * and turning its refusals into errors, and the event envelope of an operation.
 */
import { MailroomError } from '../../errors.js';
import type { OpContext } from '../team-store.js';
import type { RedisConnection } from './connection.js';
import { parseReply, refusalError, type ErrorContext, type OkReply, type Refusal } from './reply.js';
import { runScript, type RunOptions, type ScriptName } from './scripts.js';
import { envelope } from './stream-codec.js';
import { teamBase } from './keys.js';
import { lostOrGone } from './team-lost.js';

/** How many times a compare-and-set transition recomputes before giving up. */
const CAS_ATTEMPTS = 100;

/** The store's shared state. */
export interface RedisContext {
  conn: RedisConnection;
  /** The URL without its password. */
  location: string;
  /**
   * Teams this store saw exist (epoch ms of the first sighting): a later TEAM_NOT_FOUND for one of
   * them that no deletion explains is TEAM_LOST (./team-lost.ts).
   */
  known: Map<string, number>;
}

/** Instant of an operation (epoch ms). */
export function nowOf(ctx: OpContext | undefined): number {
  return ctx?.now ?? Date.now();
}

/** The envelope JSON of an operation's events. */
export function envOf(team: string, ctx: OpContext | undefined): string {
  return envelope({ team, now: nowOf(ctx), actor: ctx?.actor });
}

/**
 * Runs a team's script; refusals become errors. @returns the value and events, or 'retry'.
 * Plain promise code with the refusal path in its own function: every transition runs through
 * here (see connection.ts `call`).
 */
export function runTeamScript(rc: RedisContext, name: ScriptName, team: string, args: readonly string[], errors: Partial<ErrorContext> = {}, extraKeys: readonly string[] = [], run: RunOptions = {}): Promise<OkReply | 'retry'> {
  const keys = extraKeys.length === 0 ? [teamBase(team)] : [teamBase(team), ...extraKeys];
  return runScript(rc.conn, name, keys, args, run).then((raw) => {
    const reply = parseReply(raw);
    if (reply.kind === 'ok') {
      // Only a team a script saw is known: a read answering for a missing one ('absent') proves nothing.
      if (!rc.known.has(team) && reply.ok.absent !== true) rc.known.set(team, Date.now());
      return reply.ok;
    }
    if (reply.kind === 'retry') return 'retry';
    return refused(rc, team, reply.err, errors);
  });
}

/** The error a script's refusal stands for, thrown. */
async function refused(rc: RedisContext, team: string, err: Refusal, errors: Partial<ErrorContext>): Promise<never> {
  if (err.code === 'TEAM_NOT_FOUND' && rc.known.has(team)) throw await lostOrGone(rc, team);
  const members = err.code === 'MEMBER_NOT_FOUND' || err.code === 'MEMBER_EXISTS' ? await rosterNames(rc, team) : undefined;
  throw refusalError(err, { team, location: rc.location, ...errors, members });
}

/** Runs a script that never answers 'retry'. */
export function runOnce(rc: RedisContext, name: ScriptName, team: string, args: readonly string[], errors: Partial<ErrorContext> = {}, extraKeys: readonly string[] = [], run: RunOptions = {}): Promise<OkReply> {
  return runTeamScript(rc, name, team, args, errors, extraKeys, run).then((out) => {
    if (out === 'retry') throw new MailroomError('INTERNAL', `Redis script ${name} asked for a retry it never asks for.`);
    return out;
  });
}

/** Runs `attempt` until its compare-and-set holds. @throws INTERNAL after {@link CAS_ATTEMPTS} lost races */
export async function untilSet<T>(what: string, attempt: () => Promise<T | 'retry'>): Promise<T> {
  for (let i = 0; i < CAS_ATTEMPTS; i++) {
    const out = await attempt();
    if (out !== 'retry') return out;
  }
  throw new MailroomError('INTERNAL', `${what}: lost ${CAS_ATTEMPTS} compare-and-set races in a row; retry.`);
}

/**
 * Runs an operation that is safe to repeat with the same arguments (an idempotency key, a lease
 * id chosen here), once more when the first try failed with STORE_UNAVAILABLE: a reply lost with
 * the connection is then replayed by the script instead of applied twice, and a call made while
 * Redis restarts goes through once it is back (the connection waits for it).
 */
export async function retryUnavailable<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof MailroomError) || err.code !== 'STORE_UNAVAILABLE') throw err;
    return run();
  }
}

/** Roster names in order (for error messages), [] when the team is missing. */
async function rosterNames(rc: RedisContext, team: string): Promise<string[]> {
  const reply = parseReply(await runScript(rc.conn, 'read-team', [teamBase(team)], []));
  if (reply.kind !== 'ok') return [];
  return (reply.ok.value as unknown[]).slice(3).map((row) => String((row as unknown[])[0]));
}
