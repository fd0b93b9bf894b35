/**
 * When a hosted team is done: every teammate waits for work, no teammate has unread mail, and no
 * task is ready for anyone. Nobody is working then, so nobody can create new work: the state is
 * stable. (A ready task that a model-driven teammate keeps declining is ended by the run timeout.)
 */
import { listTasks } from '../../core/tasks/board.js';
import { isUnread } from '../../protocol/inbox.js';
import { teamOf, type StoreRef } from '../../core/context.js';
import type { InProcessHost } from '../host.js';
import { Waiter } from '../wake/waiter.js';

/** True when the team is quiet (see module doc). */
export async function isQuiet(store: StoreRef, team: string, host: InProcessHost): Promise<boolean> {
  const live = host.teammates().filter((t) => t.state !== 'stopped');
  if (live.some((t) => t.state !== 'idle')) return false;
  for (const t of live) if ((await teamOf({ root: store }).readInbox(team, t.name)).some(isUnread)) return false;
  const open = await listTasks({ root: store, team, status: 'pending' });
  return !open.some((v) => !v.blocked && (v.ready || live.some((t) => t.name === v.task.owner)));
}

/**
 * Resolves true once the team is quiet, false when `signal` aborts first (run timeout).
 * `poke` is called by the caller on teammate state changes (they make no store event).
 */
export function waitUntilQuiet(store: StoreRef, team: string, host: InProcessHost, signal: AbortSignal): { done: Promise<boolean>; poke: () => void } {
  const waiter = new Waiter<true>(host.feed, undefined, true);
  const done = waiter.next(async () => ((await isQuiet(store, team, host)) ? true : undefined), signal).then((r) => {
    waiter.close();
    return r === true;
  });
  return { done, poke: () => waiter.poke() };
}
