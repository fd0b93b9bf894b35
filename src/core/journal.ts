/**
 * Recording into the team journal (docs/format.md "Journal"): event builders, the identity of a
 * message across inboxes and journal, and the best-effort `record` the use cases call after a
 * change went through.
 */
import type { InboxEntry } from '../protocol/inbox.js';
import { JOURNAL_VERSION, type JournalEvent, type JournalMember, type JournalMessage, type JournalSource, type JournalTask } from '../protocol/journal.js';
import type { Task } from '../protocol/task.js';
import type { Store } from '../store/store.js';
import { isoTime, nowOf, storeOf, type TeamOptions } from './context.js';
import { entryKey } from './inbox.js';

/** Identity of a message: recipient plus {@link entryKey} (msg_id, else from+timestamp+text). */
export function messageKey(to: string, entry: InboxEntry): string {
  return `${to}\u0000${entryKey(entry)}`;
}

/** A `message` event for an entry as stored in `to`'s inbox. */
export function messageEvent(team: string, to: string, entry: InboxEntry, source: JournalSource, atMs: number): JournalMessage {
  return { v: JOURNAL_VERSION, team, at: isoTime(atMs), source, kind: 'message', to, entry };
}

/** A `task` event; for `deleted`, `task` is the task as it was last seen. */
export function taskEvent(team: string, action: JournalTask['action'], task: Task, source: JournalSource, atMs: number): JournalTask {
  return { v: JOURNAL_VERSION, team, at: isoTime(atMs), source, kind: 'task', action, task };
}

/** A `member` event. */
export function memberEvent(team: string, action: JournalMember['action'], name: string, agentId: string | undefined, source: JournalSource, atMs: number): JournalMember {
  const event: JournalMember = { v: JOURNAL_VERSION, team, at: isoTime(atMs), source, kind: 'member', action, name };
  if (agentId !== undefined) event.agentId = agentId;
  return event;
}

/**
 * What a task looks like on the board, for deduplication: two events with the same signature
 * record no change. Covers existence, status, owner, subject, description, active form, deps.
 */
export function taskSignature(task: Task | undefined): string {
  if (!task) return 'deleted';
  const { status, owner, subject, description, activeForm, blocks, blockedBy } = task;
  return JSON.stringify([status, owner ?? '', subject, description, activeForm ?? '', blocks, blockedBy]);
}

/**
 * Appends events to the journal, best effort: the change they describe already happened, so a
 * journal that cannot be written (read-only root, full disk) never fails it. The failure is
 * reported as a process warning (code `MAILROOM_JOURNAL`) instead.
 */
export async function record(store: Store, team: string, events: readonly JournalEvent[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await store.appendJournal(team, events);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    process.emitWarning(`mailroom could not append to the journal of team "${team}": ${reason}`, { code: 'MAILROOM_JOURNAL' });
  }
}

/** Records tasks that mailroom changed (`source: mailroom`). */
export async function recordTasks(options: TeamOptions, action: JournalTask['action'], tasks: readonly Task[]): Promise<void> {
  const now = nowOf(options);
  await record(storeOf(options.root), options.team, tasks.map((t) => taskEvent(options.team, action, t, 'mailroom', now)));
}

/** Records a message that mailroom appended to `to`'s inbox (`source: mailroom`). */
export async function recordMessage(options: TeamOptions, to: string, entry: InboxEntry): Promise<void> {
  await record(storeOf(options.root), options.team, [messageEvent(options.team, to, entry, 'mailroom', nowOf(options))]);
}
