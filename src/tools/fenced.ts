/**
 * Task writes of a member about a task it claimed, fenced (docs/runtime.md "Fencing tokens"): the
 * write carries the token the surface's {@link HeldClaims} keep for the task; a TASK_FENCED refusal
 * is recorded on the turn (`lostTasks`) and told to the lead once, then rethrown for the caller.
 */
import { updateTask, type UpdateTaskOptions, type UpdateTaskResult } from '../core/tasks/update.js';
import { reportLostTask } from '../core/tasks/fencing.js';
import { isMailroomError } from '../errors.js';
import type { ToolContext } from './types.js';

/** What {@link fencedUpdate} changes: the task and its fields (team, actor and token come from `ctx`). */
export type FencedChange = Omit<UpdateTaskOptions, 'root' | 'team' | 'as' | 'fencingToken' | 'asSelf'>;

/**
 * Updates task `change.id` as `ctx.member`, with the token held for it (none held: unfenced), and
 * keeps a token the change issued (a start that made the member the owner).
 * @throws TASK_FENCED (after telling the lead once), and whatever updateTask throws
 */
export async function fencedUpdate(ctx: ToolContext, change: FencedChange, what: string, options: { asSelf?: boolean } = {}): Promise<UpdateTaskResult> {
  const token = ctx.claims?.tokenOf(change.id);
  try {
    const result = await updateTask({ ...ctx.target, ...change, as: ctx.member, ...(token !== undefined ? { fencingToken: token } : {}), ...(options.asSelf ? { asSelf: true } : {}) });
    ctx.claims?.hold(change.id, result.fencingToken);
    return result;
  } catch (err) {
    if (isMailroomError(err, 'TASK_FENCED') && ctx.claims) {
      (ctx.record.lostTasks ??= []).push(change.id);
      const told = await reportLostTask({ ...ctx.target, member: ctx.member, error: err, what, claims: ctx.claims }).catch(() => false);
      if (told) ctx.log(`lost task #${change.id} (${what} refused: TASK_FENCED); told ${ctx.lead}`);
    }
    throw err;
  }
}
