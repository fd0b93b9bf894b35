/**
 * The journal: mailroom's append-only history of a team, one JSON object per line (NDJSON) in
 * `<root>/mailroom/journal/<team>.ndjson` (docs/format.md "Journal"). Claude Code 2.1.332 deletes
 * delivered inbox entries, so the inboxes are not a history; the journal is.
 *
 * Each line is one event: a message (an inbox entry and its recipient), a task change, or a member
 * joining or leaving. `source` says who wrote it: `mailroom` for changes mailroom made itself,
 * `observed` for changes `mailroom watch`/`log` saw on disk (made by anyone, e.g. Claude Code).
 */
import { z } from 'zod';
import { InboxEntrySchema } from './inbox.js';
import { TaskSchema } from './task.js';

/** Version of the line format; readers skip lines with another `v`. */
export const JOURNAL_VERSION = 1;

const base = {
  v: z.literal(JOURNAL_VERSION),
  /** The team's name (its config `name`). */
  team: z.string(),
  /** When the event was recorded: ISO-8601 UTC with milliseconds. */
  at: z.string(),
  /** `mailroom`: made by a mailroom operation; `observed`: seen on disk by a watcher. */
  source: z.enum(['mailroom', 'observed']),
};

/** A message that reached an inbox: the entry exactly as stored, and its recipient. */
export const JournalMessageSchema = z.looseObject({ ...base, kind: z.literal('message'), to: z.string(), entry: InboxEntrySchema });

/** A task created, changed or deleted: the task as it was after the change (before, for deletions). */
export const JournalTaskSchema = z.looseObject({
  ...base,
  kind: z.literal('task'),
  action: z.enum(['created', 'updated', 'deleted']),
  task: TaskSchema,
});

/** A member that joined or left the roster in config.json. */
export const JournalMemberSchema = z.looseObject({
  ...base,
  kind: z.literal('member'),
  action: z.enum(['joined', 'left']),
  name: z.string(),
  agentId: z.string().optional(),
});

/** One journal line. */
export const JournalEventSchema = z.discriminatedUnion('kind', [JournalMessageSchema, JournalTaskSchema, JournalMemberSchema]);

/** One journal line, parsed. */
export type JournalEvent = z.infer<typeof JournalEventSchema>;
/** A `message` journal event. */
export type JournalMessage = z.infer<typeof JournalMessageSchema>;
/** A `task` journal event. */
export type JournalTask = z.infer<typeof JournalTaskSchema>;
/** A `member` journal event. */
export type JournalMember = z.infer<typeof JournalMemberSchema>;
/** Who recorded an event. */
export type JournalSource = JournalEvent['source'];

/** Parses one line; `undefined` for a torn, foreign-version or otherwise invalid line. */
export function parseJournalLine(line: string): JournalEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = JournalEventSchema.safeParse(value);
  return parsed.success ? (value as JournalEvent) : undefined;
}
