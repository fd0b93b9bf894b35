/**
 * Verification of a listed inbox (`mailroom inbox`, docs/approvals.md "Signed teams"): in a team
 * signed on this machine every listed message gets `verified` (and, when it fails, `check` and
 * `reason`), judged as its reader would judge it:
 * - an unread message as the reader would now (core/teams/signing.ts ControlGuard): signature,
 *   and for control messages incarnation, expiry and obeyed nonces, for plain ones the reader's
 *   replay memory;
 * - a read one (history) by its signature alone, as `mailroom log --verify` does (an obeyed
 *   shutdown_request stays genuine in the history, though it would not be obeyed again);
 * - a second message carrying the signature (nonce) of an earlier listed one: `replayed`.
 * Listing journals nothing (it is a view); the readers that consume report what they withhold.
 */
import type { InboxEntry } from '../../protocol/inbox.js';
import { decodeSignature, SIG_FIELD } from '../../protocol/signature.js';
import type { TeamOptions } from '../context.js';
import { ControlGuard } from '../teams/signing.js';
import { loadTrust } from '../trust/trust.js';
import { verdictOf, type FailCheck } from '../trust/verify.js';

/** What a listed message says about its verification (signed teams only). */
export interface VerificationFields {
  /** True when it verified; false when it failed (see `check`) or its sender cannot sign (no `check`). */
  verified?: boolean;
  /** Why it failed, in stable words (core/trust/verify.ts FailCheck). */
  check?: FailCheck;
  /** Why it failed, in words naming the claimed sender. */
  reason?: string;
}

/** Judges one inbox listing; `remember` records what a caller consumed (marked read). */
export class ListingGuard {
  private constructor(
    private readonly guard: ControlGuard,
    private readonly options: TeamOptions,
    private readonly agent: string,
  ) {}

  /** The guard for `agent`'s inbox, or undefined when the team is not signed on this machine. @throws KEY_PERMISSIONS, FILE_CORRUPT */
  static async of(options: TeamOptions, agent: string): Promise<ListingGuard | undefined> {
    const trust = await loadTrust(options);
    return trust.signed ? new ListingGuard(new ControlGuard(options, agent), options, agent) : undefined;
  }

  /** Sets the {@link VerificationFields} on every message of `messages` (in place). */
  async judge(messages: readonly (VerificationFields & { entry: InboxEntry })[]): Promise<void> {
    const unread = messages.filter((m) => m.entry.read !== true);
    const judged = await this.guard.judge(unread.map((m) => m.entry));
    const refused = new Map(judged.refused.map((r) => [r.entry, r]));
    const trust = await loadTrust(this.options, { pin: false });
    const nonces = new Set<string>();
    for (const m of messages) {
      const r = refused.get(m.entry);
      if (r) Object.assign(m, { verified: false, check: r.check, reason: r.reason });
      else if (m.entry.read !== true) m.verified = judged.verified.has(m.entry);
      else {
        const v = verdictOf(trust, m.entry, this.agent);
        if (v.status === 'failed') Object.assign(m, { verified: false, check: v.check, reason: v.reason });
        else m.verified = v.status === 'verified';
      }
      const nonce = decodeSignature(m.entry[SIG_FIELD])?.nonce;
      if (m.verified === true && nonce !== undefined) {
        if (nonces.has(nonce)) Object.assign(m, { verified: false, check: 'replayed', reason: `from "${m.entry.from}" repeats an earlier message to "${this.agent}" (nonce ${nonce}): a copy appended again, a replay` });
        nonces.add(nonce);
      }
    }
  }

  /** Remembers the verified messages among `entries` as consumed by the reader (they were marked read). */
  remember(entries: readonly InboxEntry[]): Promise<void> {
    return this.guard.remember(entries);
  }
}
