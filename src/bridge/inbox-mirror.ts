/**
 * The bridge's copy of each side of each inbox, kept between sync steps and brought up to date by
 * what changed (issue 24 item 4: a step re-read and re-indexed both whole inboxes for the one
 * message that changed, so its cost grew with the history). A hint marks a copy stale; the next
 * step asks the store for the changes since the copy's mark (`TeamStore.readInboxChanges`: on
 * files the appended tail of the inbox file, on Redis the entries past the mark and the unread set)
 * and applies them: appended entries join the index by shared id, entries turned read are replaced
 * by their read version. Any other change — or a store without `readInboxChanges` — is a full read,
 * which replaces the copy. A hint that arrives during a read marks the copy stale again, so the
 * next step reads what the read may have missed: a lost change costs time, never a message.
 */
import { entryKey } from '../domain/entries.js';
import type { InboxEntry } from '../protocol/inbox.js';
import type { InboxMark, TeamStore } from '../store/team-store.js';
import { sharedId } from './identity.js';

/** Which copy. */
export type Side = 'local' | 'remote';

/** One side of an inbox as of the step's read, and what changed in it since the step before. */
export interface CopyRead {
  /** The entries by shared id, in inbox order (the first of an id wins, as stores keep ids unique). Callers must not change it. */
  byId: ReadonlyMap<string, InboxEntry>;
  /** Shared ids appended or turned read since the previous read, in inbox order; undefined after a full read. */
  changed: readonly string[] | undefined;
}

interface Copy {
  byId: Map<string, InboxEntry>;
  /** entryKey → shared id (an entry without msg_id is found again by its triple, without hashing). */
  ids: Map<string, string>;
  mark: InboxMark | undefined;
  stale: boolean;
}

/** The copies of one team's inboxes, both sides. */
export class InboxMirror {
  private readonly copies = new Map<string, Copy>();
  /**
   * Hints per copy and for all copies, counted whether or not the copy exists yet: a hint that
   * arrives while a copy is read — its first read included, when there is no copy to mark — makes
   * the copy that read produces stale (else the change waited for the presence tick).
   */
  private readonly hints = new Map<string, number>();
  private allHints = 0;

  constructor(private readonly team: string) {}

  /** The copy changed (a hint, or this bridge wrote it): the next read asks the store. */
  invalidate(side: Side, member: string): void {
    const k = key(side, member);
    this.hints.set(k, (this.hints.get(k) ?? 0) + 1);
    const c = this.copies.get(k);
    if (c) c.stale = true;
  }

  /** Every copy may have changed (the presence tick): each asks the store at its next read. */
  staleAll(): void {
    this.allHints++;
    for (const c of this.copies.values()) c.stale = true;
  }

  /** The copy of `member`'s inbox on `side` as last read, without asking the store (undefined before its first read). */
  known(side: Side, member: string): ReadonlyMap<string, InboxEntry> | undefined {
    return this.copies.get(key(side, member))?.byId;
  }

  /** Forgets every copy (after a failed step): the next reads are full. */
  clear(): void {
    this.copies.clear();
  }

  /** The copy of `member`'s inbox on `side`, brought up to date. @throws what the store's read throws (the copy is then forgotten) */
  async read(side: Side, store: TeamStore, member: string): Promise<CopyRead> {
    const k = key(side, member);
    const copy = this.copies.get(k);
    if (copy && !copy.stale) return { byId: copy.byId, changed: [] };
    if (copy) copy.stale = false;
    const seen = this.hintCount(k);
    try {
      if (!store.readInboxChanges) return this.replace(k, member, await store.readInbox(this.team, member), undefined, seen);
      const got = await store.readInboxChanges(this.team, member, copy?.mark);
      if (got.full || !copy) return this.replace(k, member, got.full ? got.entries : got.appended, got.mark, seen);
      copy.mark = got.mark;
      return { byId: copy.byId, changed: this.apply(copy, member, got.appended, got.read) };
    } catch (err) {
      this.copies.delete(k);
      throw err;
    }
  }

  private hintCount(k: string): number {
    return (this.hints.get(k) ?? 0) + this.allHints;
  }

  /** A full read's copy; stale when a hint arrived since `seen` (the hint count as the read began). */
  private replace(k: string, member: string, entries: readonly InboxEntry[], mark: InboxMark | undefined, seen: number): CopyRead {
    const old = this.copies.get(k);
    const copy: Copy = { byId: new Map(), ids: new Map(), mark, stale: (old?.stale ?? false) || this.hintCount(k) !== seen };
    for (const e of entries) this.add(copy, member, e, old?.ids);
    this.copies.set(k, copy);
    return { byId: copy.byId, changed: undefined };
  }

  private apply(copy: Copy, member: string, appended: readonly InboxEntry[], read: readonly string[]): string[] {
    const changed: string[] = [];
    for (const e of appended) changed.push(this.add(copy, member, e, undefined));
    for (const k of read) {
      const id = copy.ids.get(k);
      const e = id === undefined ? undefined : copy.byId.get(id);
      if (id === undefined || !e || e.read) continue;
      copy.byId.set(id, { ...e, read: true });
      changed.push(id);
    }
    return changed;
  }

  /** Indexes one entry; its shared id. */
  private add(copy: Copy, member: string, e: InboxEntry, known: ReadonlyMap<string, string> | undefined): string {
    const k = entryKey(e);
    const id = e.msg_id ?? copy.ids.get(k) ?? known?.get(k) ?? sharedId(this.team, member, e);
    copy.ids.set(k, id);
    if (!copy.byId.has(id)) copy.byId.set(id, e);
    return id;
  }
}

function key(side: Side, member: string): string {
  return `${side}\u0000${member}`;
}
