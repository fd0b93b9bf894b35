/**
 * Task files (`tasks/<list>/<id>.json`), matching Claude Code 2.1.109 task files (reference §5).
 */
import { z } from 'zod';

/** Task status values that are stored on disk (`deleted` is never stored: it deletes the file). */
export const TASK_STATUSES = ['pending', 'in_progress', 'completed'] as const;

/** One of {@link TASK_STATUSES}. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task file. `id` is a positive decimal integer string equal to the file name. */
export const TaskSchema = z.looseObject({
  id: z.string().regex(/^[1-9][0-9]*$/),
  subject: z.string(),
  description: z.string(),
  activeForm: z.string().optional(),
  owner: z.string().optional(),
  status: z.enum(TASK_STATUSES),
  blocks: z.array(z.string()),
  blockedBy: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** A parsed task. Unknown keys survive a read-modify-write. */
export type Task = z.infer<typeof TaskSchema>;

/** Key order Claude Code writes task files in; unknown keys follow. */
const TASK_KEY_ORDER = ['id', 'subject', 'description', 'activeForm', 'owner', 'status', 'blocks', 'blockedBy', 'metadata'];

/**
 * Returns a copy of `task` with keys in Claude Code's order (known keys first, unknown keys after,
 * in their existing order). Keys whose value is `undefined` are dropped (e.g. a cleared owner).
 */
export function canonicalTask(task: Task): Task {
  const out: Record<string, unknown> = {};
  const src = task as Record<string, unknown>;
  for (const key of TASK_KEY_ORDER) if (src[key] !== undefined) out[key] = src[key];
  for (const key of Object.keys(src)) {
    if (!TASK_KEY_ORDER.includes(key) && src[key] !== undefined) out[key] = src[key];
  }
  return out as Task;
}

/** True when the owner field counts as "no owner" (missing or empty, as Claude Code reads it). */
export function isUnowned(task: Task): boolean {
  return task.owner === undefined || task.owner === '';
}
