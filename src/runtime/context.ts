/**
 * "Who am I" for code deep in a teammate's call stack. The only module that uses
 * AsyncLocalStorage (guide: practice 5): the store shape is private, access goes through
 * {@link currentTeammate} and {@link runAsTeammate}. Domain data is still passed explicitly;
 * this only answers identity questions (e.g. a model adapter naming the caller in a log line).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Stores } from '../store/selection.js';

/** Identity and cancellation of the teammate a piece of code runs for. */
export interface TeammateContext {
  /** Team name (config `name`). */
  readonly team: string;
  /** Member name, e.g. `alice`. */
  readonly name: string;
  /** `<name>@<team>`. */
  readonly agentId: string;
  /** The lead's member name (normally `team-lead`). */
  readonly lead: string;
  /** Palette color, when the member has one. */
  readonly color?: string | undefined;
  /** Working directory for commands the teammate runs. */
  readonly cwd: string;
  /** The stores the teammate reads and writes (team state, and this machine's records). */
  readonly store: Stores;
  /** Fires when the teammate must stop (shutdown or host close). */
  readonly signal: AbortSignal;
}

const storage = new AsyncLocalStorage<TeammateContext>();

/** The teammate whose call stack this is, or undefined outside any teammate. */
export function currentTeammate(): TeammateContext | undefined {
  return storage.getStore();
}

/** Runs `fn` (and everything it awaits or schedules) as teammate `ctx`. */
export function runAsTeammate<T>(ctx: TeammateContext, fn: () => T): T {
  return storage.run(ctx, fn);
}
