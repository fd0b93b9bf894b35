/**
 * What a watcher records: the difference between what is on disk and what the journal already
 * says (`source: observed`). Reconciling with the journal, rather than with the watcher's previous
 * read, makes recording idempotent: a second watcher, or a restarted one, adds nothing the journal
 * has, and changes made while nobody watched are caught up on the next start.
 */
import type { TeamConfig } from '../../protocol/config.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import type { Task } from '../../protocol/task.js';
import type { JournalReader } from './journal-reader.js';
import { observedMember, observedMessage, observedTask, taskSignature } from './journal-observed.js';
import type { MessageRecord } from './message-book.js';

/** What is on disk now, and which parts to reconcile. */
export interface ObservedScope {
  team: string;
  /** Journal time for the events (epoch ms). */
  now: number;
  /** The config, when the roster is to be reconciled. */
  config: TeamConfig | undefined;
  /** False when config.json is gone: nobody is recorded as having left. */
  exists: boolean;
  tasks: ReadonlyMap<string, Task>;
  /** Task ids to reconcile. */
  taskIds: readonly string[];
  /** Messages first seen in this pass. */
  messages: readonly MessageRecord[];
}

/** Events the journal lacks, already accepted by `journal` (so they are not recorded twice). */
export function observedEvents(journal: JournalReader, scope: ObservedScope): TeamEventRecord[] {
  const members = memberCandidates(journal, scope);
  // Joins come first (a member joins before it talks), stamped with the member's joinedAt.
  const candidates: TeamEventRecord[] = [
    ...members.joined,
    ...byTimestamp(scope.messages).map((m) => observedMessage(scope.team, m.to, m.entry, scope.now)),
    ...taskCandidates(journal, scope),
    ...members.left,
  ];
  return candidates.filter((e) => journal.accept(e));
}

/** Messages oldest first (stable for equal timestamps). */
export function byTimestamp(messages: readonly MessageRecord[]): MessageRecord[] {
  return [...messages].sort((a, b) => (a.entry.timestamp < b.entry.timestamp ? -1 : a.entry.timestamp > b.entry.timestamp ? 1 : 0));
}

function taskCandidates(journal: JournalReader, scope: ObservedScope): TeamEventRecord[] {
  const out: TeamEventRecord[] = [];
  for (const id of new Set(scope.taskIds)) {
    const task = scope.tasks.get(id);
    const known = journal.taskSignature(id);
    if (taskSignature(task) === known) continue;
    if (task) out.push(observedTask(scope.team, known === 'deleted' ? 'created' : 'updated', task, scope.now));
    else {
      const last = journal.lastTask(id);
      if (last) out.push(observedTask(scope.team, 'deleted', last, scope.now));
    }
  }
  return out;
}

function memberCandidates(journal: JournalReader, scope: ObservedScope): { joined: TeamEventRecord[]; left: TeamEventRecord[] } {
  const config = scope.config;
  if (!config || !scope.exists) return { joined: [], left: [] };
  const joined = config.members.map((m) => observedMember(scope.team, 'joined', m.name, m.agentId, m.joinedAt ?? scope.now));
  const left = journal
    .membersWith('joined')
    .filter((p) => !config.members.some((m) => m.name === p.name))
    .map((p) => observedMember(scope.team, 'left', p.name, p.agentId, scope.now));
  return { joined, left };
}
