/**
 * Task files (`tasks/<list>/<id>.json`), matching Claude Code 2.1.109 task files (reference §5).
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Task status values that are stored on disk (`deleted` is never stored: it deletes the file). */
export const TASK_STATUSES = ['pending', 'in_progress', 'completed'] as const;

/** One of {@link TASK_STATUSES}. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task file. `id` is a positive decimal integer string equal to the file name. */
export const TaskSchema = lazySchema(() => z.looseObject({
  id: z.string().regex(/^[1-9][0-9]*$/),
  subject: z.string(),
  description: z.string(),
  activeForm: z.string().optional(),
  owner: z.string().optional(),
  status: z.enum(TASK_STATUSES),
  blocks: z.array(z.string()),
  blockedBy: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).optional(),
}));

/** A parsed task. Unknown keys survive a read-modify-write. */
export type Task = z.infer<typeof TaskSchema>;

/** Key order Claude Code writes task files in; unknown keys follow. */
const TASK_KEY_ORDER = ['id', 'subject', 'description', 'activeForm', 'owner', 'status', 'blocks', 'blockedBy', 'metadata'];

/**
 * Returns a copy of `task` ready to write, in Claude Code's key order without moving anything a
 * writer did not add: keys listed in `previousKeys` (the file's order when it was read) keep their
 * order, a newly added known key goes right after the nearest known key that precedes it in
 * Claude Code's order (so `owner` lands before `status`, as Claude Code writes it), and new
 * unknown keys go last. Keys whose value is `undefined` are dropped (e.g. a cleared owner). Keys are
 * copied as own data properties, so a `__proto__` key from the file stays a plain key.
 */
export function canonicalTask(task: Task, previousKeys: readonly string[] = []): Task {
  const src = task as Record<string, unknown>;
  const present = (key: string) => Object.prototype.hasOwnProperty.call(src, key) && src[key] !== undefined;
  const order = previousKeys.filter(present);
  for (const key of TASK_KEY_ORDER) {
    if (!present(key) || order.includes(key)) continue;
    const before = TASK_KEY_ORDER.slice(0, TASK_KEY_ORDER.indexOf(key)).reverse().find((k) => order.includes(k));
    order.splice(before === undefined ? 0 : order.indexOf(before) + 1, 0, key);
  }
  for (const key of Object.keys(src)) if (present(key) && !order.includes(key)) order.push(key);
  const out: Record<string, unknown> = {};
  for (const key of order) Object.defineProperty(out, key, { value: src[key], enumerable: true, writable: true, configurable: true });
  return out as Task;
}

/** True when the owner field counts as "no owner" (missing or empty, as Claude Code reads it). */
export function isUnowned(task: Task): boolean {
  return task.owner === undefined || task.owner === '';
}
