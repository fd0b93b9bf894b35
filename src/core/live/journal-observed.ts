/**
 * What core itself puts in the journal: only events *observed* in the store (made by another
 * writer, e.g. Claude Code), found by the watchers (tracker-record.ts). Mailroom's own changes are
 * journalled by the store, in the same step as the change (src/store/team-store.ts). Also the
 * identities readers deduplicate by.
 */
import { memberEvent as buildMember, messageEvent as buildMessage, taskEvent as buildTask, taskSignature } from '../../domain/events.js';
import { messageKey } from '../../domain/entries.js';
import type { MemberEvent, MessageEvent, TaskEvent, TeamEventRecord } from '../../protocol/events.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import type { Task } from '../../protocol/task.js';
import type { TeamStore } from '../../store/team-store.js';

export { messageKey, taskSignature };

/** An observed `message` event for an entry seen in `to`'s inbox. */
export function observedMessage(team: string, to: string, entry: InboxEntry, atMs: number): MessageEvent {
  return buildMessage({ team, at: atMs, source: 'observed' }, to, entry);
}

/** An observed `task` event; for `deleted`, `task` is the task as it was last seen. */
export function observedTask(team: string, action: TaskEvent['action'], task: Task, atMs: number): TaskEvent {
  return buildTask({ team, at: atMs, source: 'observed' }, action, task);
}

/** An observed `member` event. */
export function observedMember(team: string, action: 'joined' | 'left', name: string, agentId: string | undefined, atMs: number): MemberEvent {
  return buildMember({ team, at: atMs, source: 'observed' }, action, name, agentId);
}

/**
 * Journals observed events, best effort: what they describe is already in the store, so a journal
 * that cannot be written never fails the watcher; a process warning (code `MAILROOM_JOURNAL`) says so.
 */
export async function recordObserved(store: TeamStore, team: string, events: readonly TeamEventRecord[]): Promise<void> {
  if (events.length === 0) return;
  try {
    await store.recordObserved(team, events);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    process.emitWarning(`mailroom could not append to the journal of team "${team}": ${reason}`, { code: 'MAILROOM_JOURNAL' });
  }
}
