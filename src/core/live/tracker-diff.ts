/**
 * The events between two snapshots of a team: new messages, task changes, members joining or
 * leaving the roster, and member state changes.
 */
import type { Task } from '../../protocol/task.js';
import type { TeamEvent } from './watch-events.js';
import { compareTaskIds } from '../../domain/task-board.js';
import { taskSignature } from './journal-observed.js';
import type { MessageRecord } from './message-book.js';
import { byTimestamp } from './tracker-record.js';
import type { TeamSnapshot } from './snapshot.js';

/**
 * Events in a stable order: messages (oldest first), tasks (by id), members, states.
 * `fresh` are the messages first seen between the snapshots.
 */
export function diffSnapshots(
  before: TeamSnapshot,
  after: TeamSnapshot,
  beforeTasks: ReadonlyMap<string, Task>,
  afterTasks: ReadonlyMap<string, Task>,
  fresh: readonly MessageRecord[],
): TeamEvent[] {
  const byKey = new Map(after.messages.map((m) => [m.key, m]));
  const events: TeamEvent[] = byTimestamp(fresh).flatMap((r) => {
    const message = byKey.get(r.key);
    return message ? [{ kind: 'message' as const, message }] : [];
  });
  events.push(...taskEvents(beforeTasks, afterTasks), ...memberEvents(before, after));
  return events;
}

function taskEvents(before: ReadonlyMap<string, Task>, after: ReadonlyMap<string, Task>): TeamEvent[] {
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort(compareTaskIds);
  const out: TeamEvent[] = [];
  for (const id of ids) {
    const was = before.get(id);
    const now = after.get(id);
    if (taskSignature(was) === taskSignature(now)) continue;
    if (!was && now) out.push({ kind: 'task', action: 'created', task: now });
    else if (was && !now) out.push({ kind: 'task', action: 'deleted', task: was });
    else if (was && now) out.push({ kind: 'task', action: 'updated', task: now, previous: was });
  }
  return out;
}

function memberEvents(before: TeamSnapshot, after: TeamSnapshot): TeamEvent[] {
  const out: TeamEvent[] = [];
  const was = new Map(before.members.map((m) => [m.name, m]));
  for (const m of after.members) {
    const old = was.get(m.name);
    if (m.inRoster && !old?.inRoster && after.exists) out.push({ kind: 'member', action: 'joined', name: m.name });
    if (!m.inRoster && old?.inRoster) out.push({ kind: 'member', action: 'left', name: m.name });
    if (old && old.state !== m.state) out.push({ kind: 'state', name: m.name, from: old.state, to: m.state, reason: m.stateReason });
  }
  return out;
}
