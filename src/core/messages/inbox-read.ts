/**
 * Reading an inbox, and marking messages read. A message becomes read only when a caller says it
 * was consumed (shown to a human, or put into a model request): reading never marks by itself.
 */
import { entryKey } from '../../domain/entries.js';
import { leadName, requireMember } from '../../domain/roster.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { parseMessageText, type ParsedText } from '../../protocol/structured.js';
import { opOf, teamOf, type TeamOptions } from '../context.js';
import { ListingGuard, type VerificationFields } from './inbox-verify.js';
import { autoArchiveAllowed } from './inbox-archive.js';

export { entryKey };

/** An inbox entry with its position in the file and its text classified; in a signed team, verified (./inbox-verify.ts). */
export interface InboxMessage extends VerificationFields {
  /**
   * 0-based position among the inbox's valid entries at read time; with `includeArchived`, among
   * the history entries (archived, removed by the reader) followed by the live ones.
   */
  index: number;
  entry: InboxEntry;
  parsed: ParsedText;
  /** Set when the entry comes from the inbox's archive (read history moved out of the file). */
  archived?: true;
  /**
   * Set when the entry comes from a corrupt copy of the inbox set aside by `doctor --fix` (or by an
   * older mailroom that moved a corrupt inbox aside whole) and is not in the live inbox.
   */
  quarantined?: true;
  /**
   * Set when the entry is known from the journal only: it reached the inbox, and its reader removed
   * it since (Claude Code 2.1.332 deletes entries once delivered). It counts as read, and is shown
   * with `read: true`.
   */
  removed?: true;
  /** Set by `markRead` on the entries it marked: unread before this call, `read: true` now. */
  newlyRead?: true;
}

/** Input of {@link readInbox}. */
export interface ReadInboxOptions extends TeamOptions {
  /** Whose inbox (default: the lead). */
  agent?: string;
  /** Only entries whose `read` is not true. */
  unread?: boolean;
  /** Mark the returned entries read (they are being shown to a human). */
  markRead?: boolean;
  /**
   * Also list the inbox's read history before the live entries (`mailroom inbox --all`): entries
   * moved to its archive, and entries its reader removed that the journal recorded ({@link inboxHistory}).
   */
  includeArchived?: boolean;
}

/** Result of {@link readInbox}. */
export interface InboxView {
  agent: string;
  messages: InboxMessage[];
}

/**
 * Lists an agent's inbox in arrival order (optionally with its archived history first), optionally
 * only unread, optionally marking what it returns as read (under the inbox lock, matched by msg_id
 * or by from+timestamp+text); the result then shows the entries as stored now (`read: true`), the
 * ones this call marked flagged `newlyRead`. In a team signed on this machine each message carries
 * `verified` (and `check`/`reason` when it failed: ./inbox-verify.ts); what a `markRead` consumed
 * goes into the reader's replay memory. Marking a large inbox also moves its read head to the
 * archive in the same step, unless a Claude Code in-process teammate reads it ({@link autoArchiveAllowed}).
 * @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND, FILE_CORRUPT, KEY_PERMISSIONS
 */
export async function readInbox(options: ReadInboxOptions): Promise<InboxView> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  const agent = options.agent ?? leadName(config);
  const exists = (await store.listInboxes(options.team)).some((i) => i.name === agent);
  if (!exists) requireMember(config, agent, 'agent');
  const live = await store.readInbox(options.team, agent);
  const history = options.includeArchived ? await inboxHistory({ ...options, agent, live, exists }) : [];
  const messages = [...history, ...live.map((entry) => ({ entry, source: 'live' as const }))]
    .map(({ entry, source }, index): InboxMessage => {
      const message: InboxMessage = { index, entry, parsed: parseMessageText(entry.text) };
      if (source === 'archive') message.archived = true;
      if (source === 'quarantined') message.quarantined = true;
      if (source === 'removed') message.removed = true;
      return message;
    })
    .filter((m) => !options.unread || m.entry.read !== true);
  const guard = await ListingGuard.of(options, agent);
  await guard?.judge(messages);
  if (options.markRead && messages.some((m) => m.entry.read !== true)) {
    await markRead({ ...options, agent, entries: messages.map((m) => m.entry), archiveRead: autoArchiveAllowed(config, agent) });
    await guard?.remember(messages.filter((m) => m.entry.read !== true && m.verified === true).map((m) => m.entry));
    for (const m of messages) if (m.entry.read !== true) Object.assign(m, { entry: { ...m.entry, read: true }, newlyRead: true });
  }
  return { agent, messages };
}

/** Input of {@link markRead}. */
export interface MarkReadOptions extends TeamOptions {
  agent: string;
  /** The entries to mark, as previously read. */
  entries: readonly InboxEntry[];
  /**
   * Move the inbox's read head to its archive in the same step when the inbox has grown large
   * (`ArchiveOnRead` in src/store/team-store.ts). Set it only when {@link autoArchiveAllowed} says so.
   */
  archiveRead?: boolean;
}

/**
 * Sets `read: true` on the given entries in the agent's inbox (only on those still present),
 * matched by {@link entryKey}, in one store transition.
 * @returns how many entries changed from unread to read.
 */
export async function markRead(options: MarkReadOptions): Promise<number> {
  return (await teamOf(options).markRead(options.team, options.agent, options.entries.map(entryKey), { ...opOf(options), archiveRead: options.archiveRead })).value;
}

/** An entry of an inbox's read history: where it is known from. */
export interface HistoryEntry {
  entry: InboxEntry;
  /**
   * `archive`: mailroom moved it out of the inbox once read; `quarantined`: it is in a corrupt copy
   * of the inbox set aside by `doctor --fix`, not in the inbox; `removed`: its reader removed it (journal).
   */
  source: 'archive' | 'quarantined' | 'removed';
}

/** Input of {@link inboxHistory}. */
export interface InboxHistoryOptions extends TeamOptions {
  agent: string;
  /** The inbox's valid entries now. */
  live: readonly InboxEntry[];
  /** Whether the inbox file exists: only then is an entry missing from it known to be removed by its reader. */
  exists: boolean;
}

/**
 * The part of an inbox's history that is no longer in the file, oldest first (by timestamp), each
 * entry once and none that is still live (a crash between archiving and rewriting the inbox can
 * leave one in both: it is kept at its live position):
 * - entries mailroom moved to the inbox's archive (only read ones are moved);
 * - quarantined entries: in a corrupt copy of the inbox set aside by `doctor --fix`, not in the inbox;
 * - entries the journal says reached the inbox that are gone from it although the file exists.
 *   Their reader removed them — Claude Code 2.1.332 deletes an entry once delivered, and drops
 *   the ones already read — so they **count as read**, never as lost, and are returned with
 *   `read: true`. Nothing ever writes them back.
 */
export async function inboxHistory(options: InboxHistoryOptions): Promise<HistoryEntry[]> {
  const store = teamOf(options);
  const seen = new Set(options.live.map(entryKey));
  const out: HistoryEntry[] = [];
  const add = (entry: InboxEntry, source: HistoryEntry['source']) => {
    if (seen.has(entryKey(entry))) return;
    seen.add(entryKey(entry));
    out.push({ entry, source });
  };
  const history = await store.readInboxHistory(options.team, options.agent);
  for (const entry of history.archived) add(entry, 'archive');
  // Before the journal's: an entry gone from the inbox because its file was set aside is not "removed by its reader".
  for (const entry of history.setAside) add(entry, 'quarantined');
  if (options.exists) {
    const journal = await store.readEvents(options.team);
    for (const e of journal.events) if (e.kind === 'message' && e.to === options.agent) add({ ...e.entry, read: true }, 'removed');
  }
  return out.map((h, i) => ({ h, i })).sort((a, b) => (a.h.entry.timestamp < b.h.entry.timestamp ? -1 : a.h.entry.timestamp > b.h.entry.timestamp ? 1 : a.i - b.i)).map(({ h }) => h);
}
