/**
 * The lead's check on a shutdown answer (docs/approvals.md "Signed teams"): `team stop`, `team
 * delete` and `mailroom run` wait for the teammate's `shutdown_approved`/`shutdown_rejected` in the
 * lead's inbox, which anyone who can write the store can append to. An answer counts only when
 * - its entry is from the teammate that was asked (in every team, open or signed), and
 * - in a team signed on this machine, it passes the readers' check (core/trust/verify.ts): signed
 *   by that teammate's endorsed key, or — for a member that cannot sign (Claude Code's own) —
 *   shown unverified. An unsigned or badly signed answer from a mailroom member never counts.
 * An answer that does not count is journalled once as a refusal (rule `shutdown-answer` or
 * `signature`, actor: whom it claims to be from), so `mailroom log --actor` shows the attempt.
 */
import type { InboxEntry } from '../../protocol/inbox.js';
import { SIG_FIELD } from '../../protocol/signature.js';
import type { TeamOptions } from '../context.js';
import { journalRefusal } from '../live/journal-refusals.js';
import { loadTrust, type Trust } from '../trust/trust.js';
import { verdictOf } from '../trust/verify.js';

/** Judges the answers to one shutdown request, each entry once. */
export class AnswerCheck {
  private readonly seen = new Map<string, boolean>();
  private trust: Promise<Trust> | undefined;

  /**
   * @param options the team
   * @param lead the lead's member name (whose inbox holds the answers)
   * @param teammate the member that was asked to shut down
   */
  constructor(
    private readonly options: TeamOptions,
    private readonly lead: string,
    private readonly teammate: string,
  ) {}

  /**
   * True when `entry` (a `shutdown_approved` or `shutdown_rejected` echoing the request id) counts
   * as the teammate's answer; false (journalled once) when it does not.
   * @throws KEY_PERMISSIONS, FILE_CORRUPT (this machine's identity files)
   */
  async accepts(entry: InboxEntry, type: string): Promise<boolean> {
    const key = [entry.from, entry.timestamp, entry.msg_id ?? '', String(entry[SIG_FIELD] ?? ''), entry.text].join('\0');
    const known = this.seen.get(key);
    if (known !== undefined) return known;
    const refusal = await this.refusalOf(entry, type);
    this.seen.set(key, refusal === undefined);
    if (refusal) await journalRefusal(this.options, entry.from, { action: 'control', rule: refusal.rule, code: 'NOT_PERMITTED', message: `ignored by the lead waiting for ${this.teammate}'s shutdown answer: ${refusal.reason}`, target: this.lead });
    return refusal === undefined;
  }

  private async refusalOf(entry: InboxEntry, type: string): Promise<{ rule: string; reason: string } | undefined> {
    if (entry.from !== this.teammate) return { rule: 'shutdown-answer', reason: `a ${type} from "${entry.from}" answering the shutdown_request sent to "${this.teammate}": only "${this.teammate}" answers it` };
    this.trust ??= loadTrust(this.options);
    const trust = await this.trust;
    const v = verdictOf(trust, entry, this.lead);
    return v.status === 'failed' ? { rule: 'signature', reason: `a ${type} ${v.reason}` } : undefined;
  }
}
