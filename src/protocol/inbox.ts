/**
 * Inbox entries (`teams/<team>/inboxes/<agent>.json`, a JSON array), matching Claude Code 2.1.109
 * and the 2.1.332 additions `type`, `msgV`, `msg_id` (reference §3).
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** One inbox entry. `type` is always `"message"`: it is *not* the protocol type (that lives in `text`). */
export const InboxEntrySchema = lazySchema(() => z.looseObject({
  from: z.string(),
  text: z.string(),
  summary: z.string().optional(),
  timestamp: z.string(),
  color: z.string().optional(),
  read: z.boolean().optional(),
  type: z.string().optional(),
  msgV: z.number().optional(),
  msg_id: z.string().optional(),
}));

/** A parsed inbox entry. */
export type InboxEntry = z.infer<typeof InboxEntrySchema>;

/**
 * Builds an entry in the key order Claude Code 2.1.332 writes (`from, text, summary?, timestamp,
 * color?, msgV, msg_id, type, read`; its snapshot 3). 2.1.109's own keys keep their relative order
 * (`from, text, summary?, timestamp, color?, read`; it writes no `msgV`, `msg_id`, `type`).
 * Optional fields that are undefined are left out. `extras` (mailroom's own fields, e.g.
 * `in_reply_to`: docs/format.md "Extra entry fields") go last, after `read`: Claude Code readers
 * ignore unknown fields and its writers keep them (reference §2, §3).
 */
export function makeInboxEntry(input: {
  from: string;
  text: string;
  summary?: string | undefined;
  timestamp: string;
  color?: string | undefined;
  msgId: string;
  extras?: Readonly<Record<string, unknown>> | undefined;
}): InboxEntry {
  const entry: InboxEntry = { from: input.from, text: input.text } as InboxEntry;
  if (input.summary !== undefined && input.summary !== '') entry.summary = input.summary;
  entry.timestamp = input.timestamp;
  if (input.color !== undefined) entry.color = input.color;
  entry.msgV = 1;
  entry.msg_id = input.msgId;
  entry.type = 'message';
  entry.read = false;
  for (const [key, value] of Object.entries(input.extras ?? {})) if (value !== undefined && !(key in entry)) entry[key] = value;
  return entry;
}

/** True when an entry still waits to be delivered: `read` is not `true` (Claude Code's rule). */
export function isUnread(entry: InboxEntry): boolean {
  return entry.read !== true;
}

/**
 * True when `value` is an inbox entry: exactly what `InboxEntrySchema.safeParse(value).success`
 * answers (test/unit/protocol/inbox-entry-check.test.ts compares the two on generated values),
 * without zod. Every read of an inbox checks each entry of the file, and a file holds up to a few
 * hundred: a send's read under the inbox lock (before the rename a woken teammate waits for) and a
 * take's read ran zod over every one of them, 0.5–1.4 µs an entry, more than parsing the JSON
 * (issue 24: send → an idle `mailroom agent`'s next model request).
 */
export function isInboxEntry(value: unknown): value is InboxEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.from === 'string' &&
    typeof e.text === 'string' &&
    typeof e.timestamp === 'string' &&
    optionalOf(e.summary, 'string') &&
    optionalOf(e.color, 'string') &&
    optionalOf(e.read, 'boolean') &&
    optionalOf(e.type, 'string') &&
    (e.msgV === undefined || (typeof e.msgV === 'number' && Number.isFinite(e.msgV))) &&
    optionalOf(e.msg_id, 'string')
  );
}

/** An optional field: absent (or `undefined`), else of type `type`. */
function optionalOf(value: unknown, type: 'string' | 'boolean'): boolean {
  return value === undefined || typeof value === type;
}
