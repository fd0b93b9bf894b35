/**
 * What `watch` reports as things change, and the one-line text for each event and journal line
 * (used by `watch` in plain mode, the TUI's status line and `mailroom log`).
 */
import type { TeamEventRecord } from '../../protocol/events.js';
import type { Task } from '../../protocol/task.js';
import type { MemberState } from '../members/member-state.js';
import type { MessageView } from './snapshot.js';

/** A change between two snapshots of a team. */
export type TeamEvent =
  | { kind: 'message'; message: MessageView }
  | { kind: 'task'; action: 'created' | 'updated' | 'deleted'; task: Task; previous?: Task | undefined }
  | { kind: 'member'; action: 'joined' | 'left'; name: string }
  | { kind: 'state'; name: string; from: MemberState; to: MemberState; reason: string }
  | {
      kind: 'team';
      action: 'removed' | 'restored';
      /**
       * Set on a removal that is for good: Claude Code 2.1.332 ended its session and is removing the
       * team (its `*.deleted-<uuid>` tombstone was seen, or a session team's config vanished); the
       * team will not come back, so followers stop.
       */
      final?: true;
      /** Where the team went while it is removed (the tombstone directory), when seen. */
      location?: string;
    };

/** Collapses whitespace (newlines included) to single spaces and caps the length with `…`. */
export function oneLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** One line for a team event, without a timestamp. */
export function describeEvent(e: TeamEvent): string {
  switch (e.kind) {
    case 'message':
      return `${e.message.entry.from} → ${e.message.to}: ${oneLine(e.message.line)}`;
    case 'task':
      return describeTask(e.action, e.task, e.previous);
    case 'member':
      return `${e.name} ${e.action} the team`;
    case 'state':
      return `${e.name}: ${e.from} → ${e.to} (${e.reason})`;
    case 'team':
      if (e.final) return `team removed: its Claude Code session ended${e.location ? ` (the client is deleting ${e.location})` : ''}`;
      return e.action === 'removed' ? 'team removed (config.json is gone)' : 'team is back (config.json exists again)';
  }
}

/** One line for a task change; with `previous`, only what changed. */
export function describeTask(action: 'created' | 'updated' | 'deleted', task: Task, previous?: Task): string {
  const head = `task #${task.id} "${oneLine(task.subject, 60)}"`;
  if (action === 'deleted') return `${head} deleted`;
  if (action === 'updated' && previous) return `${head}: ${taskChanges(previous, task).join(', ') || 'touched'}`;
  const deps = task.blockedBy.length > 0 ? `, blockedBy ${task.blockedBy.map((id) => `#${id}`).join(' ')}` : '';
  return `${head} ${action}: ${task.status}, ${task.owner ? `owner ${task.owner}` : 'no owner'}${deps}`;
}

/** The fields that differ, as `status pending → in_progress`, `owner → alice` … */
export function taskChanges(before: Task, after: Task): string[] {
  const out: string[] = [];
  if (before.status !== after.status) out.push(`status ${before.status} → ${after.status}`);
  if ((before.owner ?? '') !== (after.owner ?? '')) out.push(after.owner ? `owner → ${after.owner}` : `owner ${before.owner} removed`);
  if (before.subject !== after.subject) out.push('subject changed');
  if (before.description !== after.description) out.push('description changed');
  if (before.blockedBy.join() !== after.blockedBy.join()) out.push(`blockedBy ${after.blockedBy.map((id) => `#${id}`).join(' ') || 'nothing'}`);
  if (before.blocks.join() !== after.blocks.join()) out.push(`blocks ${after.blocks.map((id) => `#${id}`).join(' ') || 'nothing'}`);
  if ((before.activeForm ?? '') !== (after.activeForm ?? '')) out.push('activeForm changed');
  out.push(...metadataChanges(before.metadata, after.metadata));
  return out;
}

/** Metadata keys that differ, as `metadata progress → 3`, `metadata note removed` (values cut to 40 characters). */
export function metadataChanges(before: Readonly<Record<string, unknown>> | undefined, after: Readonly<Record<string, unknown>> | undefined): string[] {
  const was = before ?? {};
  const now = after ?? {};
  const out: string[] = [];
  for (const key of [...new Set([...Object.keys(was), ...Object.keys(now)])].sort()) {
    if (JSON.stringify(was[key]) === JSON.stringify(now[key])) continue;
    out.push(Object.hasOwn(now, key) ? `metadata ${key} → ${oneLine(JSON.stringify(now[key]) ?? 'undefined', 40)}` : `metadata ${key} removed`);
  }
  return out;
}

/**
 * One line for a journal event, starting with its time: the entry's timestamp for messages, the
 * recording time otherwise. `describe` renders a message's text (callers pass describeText).
 */
export function describeJournalEvent(e: TeamEventRecord, describe: (text: string) => string, previous?: Task): string {
  switch (e.kind) {
    case 'message':
      return `${e.entry.timestamp}  ${e.entry.from} → ${e.to}: ${oneLine(describe(e.entry.text))}`;
    case 'task':
      return `${e.at}  ${describeTask(e.action, e.task, e.action === 'updated' ? previous : undefined)}`;
    case 'member':
      return e.action === 'updated' ? `${e.at}  ${e.name} updated (${(e.changed ?? []).join(', ') || 'touched'})` : `${e.at}  ${e.name} ${e.action} the team`;
    case 'delivery':
      return `${e.at}  message ${e.key} to ${e.to}: ${e.state}${e.lease ? ` (lease ${e.lease})` : ''}`;
    case 'team':
      return `${e.at}  team ${e.action}`;
    case 'refused':
      return `${e.at}  refused ${e.action}${e.target ? ` (${e.target})` : ''} by ${e.actor ?? '?'}: ${oneLine(e.message)} [${e.rule}]`;
    case 'settings':
      return `${e.at}  team settings changed: ${e.changed.join(', ')}`;
    case 'lease':
      return `${e.at}  ${e.holder} ${e.action === 'acquired' ? 'leased' : `lease ${e.action}`} ${e.paths.join(', ')} (${e.id}${e.shared ? ', shared' : ''}${e.why ? `, ${e.why}` : ''})`;
  }
}
