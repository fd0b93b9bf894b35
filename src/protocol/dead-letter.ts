/**
 * The stored shape of a dead letter (issue 11 item 4; docs/format.md "Dead letters"): a message left
 * unread in the inbox of a member who left, kept with the member it was for. The rules that make
 * and retry them are in src/domain/dead-letters.ts.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { InboxEntrySchema } from './inbox.js';

/** A dead letter as stored (docs/format.md "Dead letters"). */
export const DeadLetterSchema = lazySchema(() => z.object({
  /** The entry's `msg_id`, else `dl-` and 12 hex digits of SHA-256 of its identity (Claude Code's entries have no msg_id). */
  id: z.string(),
  /** The member whose inbox it was in (who left). */
  to: z.string(),
  /** The entry as it was in the inbox, unread. */
  entry: InboxEntrySchema,
  /** When it was dead-lettered: ISO-8601 UTC with milliseconds. */
  at: z.string(),
}));

/** One dead letter. */
export type DeadLetter = z.infer<typeof DeadLetterSchema>;

