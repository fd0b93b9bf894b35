/**
 * The runtime's reading side of the lead-only answers (src/domain/policy.ts `LEAD_ONLY_TYPES`): a
 * shutdown_request or a permission, plan or sandbox answer whose entry is not from the lead is
 * withheld from the model in every team, open or signed, logged, and journalled as a refusal
 * (rule `lead-only`, actor: whom it claims to be from). The use cases refuse to send such a message
 * (src/core/teams/policy.ts); this catches one written into the inbox file by other means.
 */
import { journalRefusal } from '../../core/live/journal-refusals.js';
import type { StoreRef } from '../../core/context.js';
import { leadOnlyType } from '../../core/teams/policy.js';
import type { InboxEntry } from '../../protocol/inbox.js';

/** Where the withheld entries are reported. */
export interface LeadOnlyReader {
  store: StoreRef;
  team: string;
  /** The reading member. */
  name: string;
  lead: string;
  log: (line: string) => void;
}

/** The entries of `entries` that carry a lead-only message from someone other than the lead, each logged and journalled. */
export async function withheldLeadOnly(reader: LeadOnlyReader, entries: readonly InboxEntry[]): Promise<InboxEntry[]> {
  const out: InboxEntry[] = [];
  for (const entry of entries) {
    if (entry.from === reader.lead) continue;
    const type = leadOnlyType(entry.text);
    if (type === undefined) continue;
    const why = `ignored a ${type} from "${entry.from}": only the lead (${reader.lead}) sends it`;
    reader.log(why);
    await journalRefusal({ root: reader.store, team: reader.team }, entry.from, { action: 'control', rule: 'lead-only', code: 'NOT_PERMITTED', message: why, target: reader.name, surface: 'runtime' });
    out.push(entry);
  }
  return out;
}
