/**
 * Reading an inbox, and marking messages read. A message becomes read only when a caller says it
 * was consumed (shown to a human, or put into a model request): reading never marks by itself.
 */
import { entryKey } from '../domain/entries.js';
import { leadName, requireMember } from '../domain/roster.js';
import type { InboxEntry } from '../protocol/inbox.js';
import { parseMessageText, type ParsedText } from '../protocol/structured.js';
import { opOf, teamOf, type TeamOptions } from './context.js';

export { entryKey };

/** An inbox entry with its position in the file and its text classified. */
export interface InboxMessage {
  /**
   * 0-based position among the inbox's valid entries at read time; with `includeArchived`, among
   * archived entries followed by live ones.
   */
  index: number;
  entry: InboxEntry;
  parsed: ParsedText;
  /** Set when the entry comes from the inbox's archive (read history moved out of the file). */
  archived?: true;
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
  /** Also list the entries moved to the inbox's archive, before the live ones (`mailroom inbox --all`). */
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
 * ones this call marked flagged `newlyRead`.
 * @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND, FILE_CORRUPT
 */
export async function readInbox(options: ReadInboxOptions): Promise<InboxView> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  const agent = options.agent ?? leadName(config);
  if (!(await store.listInboxes(options.team)).some((i) => i.name === agent)) requireMember(config, agent, 'agent');
  const live = await store.readInbox(options.team, agent);
  const archived = options.includeArchived ? (await store.readInboxHistory(options.team, agent)).archived : [];
  const messages = mergeArchived(archived, live)
    .map(({ entry, archived: fromArchive }, index): InboxMessage => {
      const message: InboxMessage = { index, entry, parsed: parseMessageText(entry.text) };
      if (fromArchive) message.archived = true;
      return message;
    })
    .filter((m) => !options.unread || m.entry.read !== true);
  if (options.markRead && messages.some((m) => m.entry.read !== true)) {
    await markRead({ ...options, agent, entries: messages.map((m) => m.entry) });
    for (const m of messages) if (m.entry.read !== true) Object.assign(m, { entry: { ...m.entry, read: true }, newlyRead: true });
  }
  return { agent, messages };
}

/** Input of {@link markRead}. */
export interface MarkReadOptions extends TeamOptions {
  agent: string;
  /** The entries to mark, as previously read. */
  entries: readonly InboxEntry[];
}

/**
 * Sets `read: true` on the given entries in the agent's inbox (only on those still present),
 * matched by {@link entryKey}, in one store transition.
 * @returns how many entries changed from unread to read.
 */
export async function markRead(options: MarkReadOptions): Promise<number> {
  return (await teamOf(options).markRead(options.team, options.agent, options.entries.map(entryKey), opOf(options))).value;
}

/**
 * Archived entries followed by the live ones, each once: an entry found in both (a crash between
 * archiving and rewriting the inbox) is kept in its live position.
 */
function mergeArchived(archived: readonly InboxEntry[], live: readonly InboxEntry[]): Array<{ entry: InboxEntry; archived: boolean }> {
  const seen = new Set(live.map(entryKey));
  const out: Array<{ entry: InboxEntry; archived: boolean }> = [];
  for (const entry of archived) {
    if (seen.has(entryKey(entry))) continue;
    seen.add(entryKey(entry));
    out.push({ entry, archived: true });
  }
  return out.concat(live.map((entry) => ({ entry, archived: false })));
}
