/**
 * Reading the journal incrementally, without duplicates, as `mailroom log`, `watch` and the
 * tracker show it. Several writers may record the same thing (mailroom's send and a watcher that
 * saw the entry land; two watchers), so a reader keeps: a message once per {@link messageKey}; a
 * task event only when the task's {@link taskSignature} changed; a member event only when it flips
 * the member's presence. Delivery, team-lifecycle and member-update events are each a change of
 * their own: they are always news (`mailroom log` shows them collapsed unless `--expand`,
 * docs/journal.md).
 */
import type { TeamEventRecord } from '../../protocol/events.js';
import type { Task } from '../../protocol/task.js';
import type { Cursor, TeamStore } from '../../store/team-store.js';
import { asTeamStore, type StoreRef } from '../context.js';
import { messageKey, taskSignature } from './journal-observed.js';

/**
 * The events a journal reader returns: every kind this release knows (messages, deliveries, task
 * changes, members joining, leaving and changing, the team's lifecycle), duplicates dropped.
 */
export type ShownEvent = TeamEventRecord;

/** Follows one team's journal; each {@link next} returns the new, deduplicated events. */
export class JournalReader {
  private position: Cursor | undefined;
  private readonly messages = new Set<string>();
  private readonly tasks = new Map<string, { signature: string; task: Task }>();
  private readonly members = new Map<string, { action: 'joined' | 'left'; agentId: string | undefined }>();

  private readonly store: TeamStore;

  /** `store`: a filesystem root, opened stores, or a team store. */
  constructor(
    store: StoreRef | TeamStore,
    private readonly team: string,
  ) {
    this.store = asTeamStore(store);
  }

  /** Where the next read starts (undefined before the first). */
  get cursor(): Cursor | undefined {
    return this.position;
  }

  /** Events appended since the last call (all of them on the first call), duplicates dropped. */
  async next(): Promise<ShownEvent[]> {
    const page = await this.store.readEvents(this.team, { since: this.position });
    this.position = page.cursor;
    return page.events.filter((e): e is ShownEvent => this.accept(e));
  }

  /**
   * Notes an event as known and says whether it is news (not a duplicate, and a kind readers show).
   * Writers call it before recording, so they do not append what the journal already says.
   */
  accept(event: TeamEventRecord): boolean {
    switch (event.kind) {
      case 'message': {
        const key = messageKey(event.to, event.entry);
        if (this.messages.has(key)) return false;
        this.messages.add(key);
        return true;
      }
      case 'task': {
        const signature = taskSignature(event.action === 'deleted' ? undefined : event.task);
        if (this.tasks.get(event.task.id)?.signature === signature) return false;
        this.tasks.set(event.task.id, { signature, task: event.task });
        return true;
      }
      case 'member': {
        if (event.action === 'updated') return true;
        if (this.members.get(event.name)?.action === event.action) return false;
        this.members.set(event.name, { action: event.action, agentId: event.agentId ?? this.members.get(event.name)?.agentId });
        return true;
      }
      case 'delivery':
      case 'team':
      case 'refused':
      case 'settings':
      case 'lease':
        return true;
    }
  }

  /** True when the message is already in the journal. */
  hasMessage(key: string): boolean {
    return this.messages.has(key);
  }

  /** The journal's latest signature of a task (`deleted` when unknown or deleted). */
  taskSignature(id: string): string {
    return this.tasks.get(id)?.signature ?? 'deleted';
  }

  /** The task as the journal last recorded it (for a deletion event), if any. */
  lastTask(id: string): Task | undefined {
    return this.tasks.get(id)?.task;
  }

  /** Ids of tasks the journal believes exist. */
  knownTaskIds(): string[] {
    return [...this.tasks].filter(([, t]) => t.signature !== 'deleted').map(([id]) => id);
  }

  /** Members by presence: `joined` or `left`, by the journal's latest event for each name. */
  membersWith(action: 'joined' | 'left'): Array<{ name: string; agentId: string | undefined }> {
    return [...this.members].filter(([, m]) => m.action === action).map(([name, m]) => ({ name, agentId: m.agentId }));
  }
}
