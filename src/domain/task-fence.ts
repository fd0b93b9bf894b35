/**
 * Fencing tokens on task ownership (issue 21 item 2; docs/decisions.md "Fencing tokens"). Every
 * claim of a task — `claimTask`, or a change that gives it a new owner — issues the next token of
 * that task: a whole number kept in the task's own record under {@link FENCE_KEY}, a top-level key
 * Claude Code ignores and keeps (its updates are shallow merges, reference §5). An owner's writes
 * about its task carry the token it was given; the store refuses a stale one (TASK_FENCED) in the
 * same atomic step as the write, so an owner that was swept while frozen and wakes up later can
 * never overwrite the outcome of the owner that came after it. Pure: the backends apply it inside
 * their transitions (the filesystem store under the task lock, Redis in its Lua scripts).
 *
 * A token is issued as max(previous + 1, the store's clock in epoch ms) ({@link nextFence}): it only
 * grows per task, and it grows past every token issued before even when the store lost them — a
 * Redis server restarted from a snapshot older than its last claims (no AOF) holds an older token,
 * but its clock has moved on past the instant each lost token was issued (docs/decisions.md
 * "Fencing tokens from the store's clock").
 */
import { MailroomError } from '../errors.js';
import { isUnowned, type Task } from '../protocol/task.js';

/** The task key holding the fencing token of its current claim (absent: never claimed through mailroom). */
export const FENCE_KEY = 'fencingToken';

/** The task's fencing token (0 when it has none or a value that is not a whole number ≥ 0). */
export function fenceOf(task: Task): number {
  const v = (task as Record<string, unknown>)[FENCE_KEY];
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0;
}

/**
 * The token a claim issues after `current`: max(current + 1, `nowMs`), `nowMs` being the store's
 * clock in epoch ms (Redis `TIME` inside the script; the files store's machine clock). So a token
 * exceeds every token issued at an earlier instant, by a clock that does not go back, even one the
 * store no longer holds; only more than one claim of a task per millisecond runs ahead of the clock.
 * Always a safe integer: after `Number.MAX_SAFE_INTEGER` (a token written by hand) it is `nowMs`.
 */
export function nextFence(current: number, nowMs: number): number {
  // A token at the top (only ever written by hand) restarts from the clock: its successor would not be a safe integer.
  return current >= Number.MAX_SAFE_INTEGER ? Math.floor(nowMs) : Math.max(current + 1, Math.floor(nowMs));
}

/** Issues the next token of `task` in place (a claim) at the store's clock `nowMs` (epoch ms, {@link nextFence}): @returns it. */
export function issueFence(task: Task, nowMs: number): number {
  const next = nextFence(fenceOf(task), nowMs);
  Object.defineProperty(task, FENCE_KEY, { value: next, enumerable: true, writable: true, configurable: true });
  return next;
}

/**
 * TASK_FENCED when a write carrying `token` on behalf of `actor` is stale: the task is no longer
 * owned by `actor`, or was claimed again since `token` was issued. Undefined when the write may go.
 */
export function fenceRefusal(team: string, task: Task, actor: string | undefined, token: number): MailroomError | undefined {
  const current = fenceOf(task);
  const owner = isUnowned(task) ? undefined : task.owner;
  if (actor !== undefined && owner === actor && current === token) return undefined;
  return taskFenced(team, task.id, actor ?? '', token, current, owner);
}

/** The TASK_FENCED error: `actor` wrote with `token`, the task is at `current` owned by `owner`. */
export function taskFenced(team: string, id: string, actor: string, token: number, current: number, owner: string | undefined): MailroomError {
  const now = owner === undefined ? 'it has no owner now' : owner === actor ? `it was claimed again since (token ${current})` : `it is owned by ${owner} now (token ${current})`;
  return new MailroomError(
    'TASK_FENCED',
    `${actor || 'This writer'} no longer owns task #${id} of team "${team}" (its fencing token ${token} is stale: ${now}); nothing was written. ` +
      'It was taken back (its owner was presumed dead, or it was reassigned): stop working on it, and claim it again only if it is ready.',
    { details: { team, id, actor, token, current, owner } },
  );
}
