/**
 * `mailroom log --verify`: every message in the team's journal checked against what this machine
 * trusts (core/verify.ts, without the live reader's incarnation, expiry and replay checks: a
 * message's history is judged, not whether it may be obeyed now). Messages journalled before the
 * team was signed are counted apart.
 */
import type { Cursor } from '../../store/team-store.js';
import { teamOf, type TeamOptions } from '../context.js';
import { loadTrust } from './trust.js';
import { verdictOf, type FailCheck } from './verify.js';

/** One message that failed. */
export interface FailedMessage {
  at: string;
  from: string;
  to: string;
  msgId: string | undefined;
  check: FailCheck;
  reason: string;
}

/** What {@link verifyJournal} found. */
export interface JournalVerification {
  team: string;
  /** Signed on this machine (false: nothing was checked). */
  signed: boolean;
  verified: number;
  /** From senders that cannot sign (Claude Code members), shown as unverified. */
  unverified: number;
  /** Journalled before the team was signed. */
  before: number;
  failed: FailedMessage[];
}

/** Checks every message event of the journal. @throws TEAM_NOT_FOUND, KEY_PERMISSIONS */
export async function verifyJournal(options: TeamOptions): Promise<JournalVerification> {
  const trust = await loadTrust(options);
  const out: JournalVerification = { team: options.team, signed: trust.signed, verified: 0, unverified: 0, before: 0, failed: [] };
  if (!trust.signed) return out;
  const since = trust.keys[0]?.since ?? 0;
  let cursor: Cursor | undefined;
  for (;;) {
    const page = await teamOf(options).readEvents(options.team, { since: cursor });
    for (const e of page.events) {
      if (e.kind !== 'message') continue;
      if (Date.parse(e.at) < since) {
        out.before++;
        continue;
      }
      const v = verdictOf(trust, e.entry, e.to);
      if (v.status === 'verified') out.verified++;
      else if (v.status === 'unverified') out.unverified++;
      else if (v.status === 'failed') out.failed.push({ at: e.at, from: e.entry.from, to: e.to, msgId: e.entry.msg_id, check: v.check, reason: v.reason });
    }
    if (page.events.length === 0 || page.cursor === cursor) break;
    cursor = page.cursor;
  }
  return out;
}
