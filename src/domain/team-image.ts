/**
 * The rules of a bulk import (`TeamStore.importTeam`), shared by every backend: what a team
 * image must satisfy before anything is written, and the identity of an entry a backend indexes.
 */
import { MailroomError } from '../errors.js';
import { TASK_ID_PATTERN } from './task-board.js';

/** What {@link checkTeamImage} looks at of a team image (the store's `TeamImage`). */
export interface ImageOutline {
  config: { name: string };
  tasks: readonly { id: string }[];
  highWatermark: string;
  inboxes: readonly { name: string }[];
}

/** The largest task id a signed 64-bit counter holds (Redis INCR). */
export const INT64_MAX = 9_223_372_036_854_775_807n;

/**
 * Checks an image: task ids decimal without a leading zero, none twice, none above the high-water
 * mark (itself a whole number), nor above `maxId` when the backend has a bound; each inbox named
 * once. @throws INVALID_ARGUMENT naming the first problem (nothing is written by the caller)
 */
export function checkTeamImage(image: ImageOutline, maxId?: bigint): void {
  const team = image.config.name;
  const bad = (why: string, details: Record<string, unknown> = {}) =>
    new MailroomError('INVALID_ARGUMENT', `Cannot import team "${team}": ${why}. Nothing was written.`, { details: { team, ...details } });
  if (!/^(0|[1-9][0-9]*)$/.test(image.highWatermark)) throw bad(`its high-water mark ${JSON.stringify(image.highWatermark)} is not a whole number`);
  const mark = BigInt(image.highWatermark);
  if (maxId !== undefined && mark > maxId) throw bad(`its high-water mark ${image.highWatermark} is above ${maxId}, the largest task id this store keeps`, { highWatermark: image.highWatermark });
  const ids = new Set<string>();
  for (const task of image.tasks) {
    if (!TASK_ID_PATTERN.test(task.id)) throw bad(`task id ${JSON.stringify(task.id)} is not a decimal number`, { id: task.id });
    if (ids.has(task.id)) throw bad(`task #${task.id} appears twice`, { id: task.id });
    ids.add(task.id);
    if (BigInt(task.id) > mark) throw bad(`task #${task.id} is above the high-water mark ${image.highWatermark}`, { id: task.id });
  }
  const names = new Set<string>();
  for (const inbox of image.inboxes) {
    if (names.has(inbox.name)) throw bad(`the inbox of "${inbox.name}" appears twice`, { inbox: inbox.name });
    names.add(inbox.name);
  }
}
