/**
 * A signed control message lives at most CONTROL_MAX_TTL_MS (docs/approvals.md "What is signed"):
 * a member whose key was stolen (a hostile but validly signed message) cannot sign a
 * `shutdown_request` obeyed for years, nor one "signed in the future". Real key files in a temp root,
 * the reader's own guard (ControlGuard) and `log --verify` (verifyJournal).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { verifyJournal } from '../../../src/core/trust/log-verify.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { ControlGuard } from '../../../src/core/teams/signing.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';
import { CERT_FIELD, CONTROL_MAX_TTL_MS, SIGNING_SKEW_MS, SIG_FIELD, newNonce, signEntry } from '../../../src/protocol/signature.js';
import { hostileSignature } from '../../helpers/hostile-signer.js';
import type { Stores } from '../../../src/store/selection.js';
import { thrown } from '../../helpers/thrown.js';
import { signedFsTeam } from '../../helpers/signed-team.js';
import type { TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
let root: Stores;
const team = 'demo';
const YEAR = 365 * 24 * 3_600_000;
beforeEach(async () => ({ dir, root } = await signedFsTeam(team, ['alice', 'bob'])));
afterEach(async () => dir.cleanup());

/** A shutdown_request to alice signed with bob's own (stolen) key and certificate, with the signing time and expiry given. */
async function hostileShutdown(at: number, expires: number): Promise<InboxEntry> {
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'a genuine one, for its certificate' });
  const cert = (await root.team.readInbox(team, 'alice')).at(-1)![CERT_FIELD];
  const key = (await root.host.readMemberKey(team, 'bob'))!;
  const alice = (await root.team.readConfig(team)).members.find((m) => m.name === 'alice')!;
  const text = JSON.stringify({ type: 'shutdown_request', requestId: `shutdown-${at}@alice`, from: 'bob', reason: 'stop forever', timestamp: new Date(at).toISOString() });
  const msgId = randomUUID();
  // signEntry refuses such an expiry: the hostile signer signs the statement itself, as a modified client would.
  const sig = hostileSignature(key, { team, from: 'bob', to: 'alice', msgId, text }, { at, nonce: newNonce(), incarnation: alice.joinedAt, expires });
  const entry: InboxEntry = { from: 'bob', text, timestamp: new Date(at).toISOString(), msg_id: msgId, read: false, [SIG_FIELD]: sig, [CERT_FIELD]: cert };
  await root.team.appendMessages(team, [{ to: 'alice', entry }]);
  return entry;
}

const judge = (entries: InboxEntry[], now?: number) => new ControlGuard({ root, team, ...(now ? { now: () => now } : {}) }, 'alice').judge(entries);

it('a shutdown_request signed with a valid key but valid for ten years is refused, by the reader and by log --verify', async () => {
  const now = Date.now();
  const forged = await hostileShutdown(now, now + 10 * YEAR);
  const j = await judge([forged]);
  expect(j.verified.has(forged)).toBe(false);
  expect(j.refused.map((r) => [r.check, r.type])).toEqual([['expiry-too-long', 'shutdown_request']]);
  expect(j.refused[0]!.reason).toContain('more than 60 minutes after it was signed');
  // Also years later: still refused as too long (not merely expired), so nothing keeps it alive.
  expect((await judge([forged], now + 5 * YEAR)).refused.map((r) => r.check)).toEqual(['expiry-too-long']);
  const report = await verifyJournal({ root, team });
  expect(report.failed.map((f) => f.check)).toEqual(['expiry-too-long']);
});

it('one "signed in the future" (a lifetime of an hour, starting in a year) is refused by a live reader', async () => {
  const now = Date.now();
  const forged = await hostileShutdown(now + YEAR, now + YEAR + CONTROL_MAX_TTL_MS);
  expect((await judge([forged], now)).refused.map((r) => r.check)).toEqual(['expiry-too-long']);
  // Within the clock skew allowed between machines it verifies: the rule refuses only what reaches too far.
  const skewed = await hostileShutdown(now + SIGNING_SKEW_MS - 60_000, now + SIGNING_SKEW_MS - 60_000 + CONTROL_MAX_TTL_MS);
  const ok = await judge([skewed], now);
  expect(ok.refused).toEqual([]);
  expect(ok.verified.has(skewed)).toBe(true);
});

it('the longest lifetime mailroom signs verifies; the sender side refuses to sign a longer one', async () => {
  const now = Date.now();
  const max = await hostileShutdown(now, now + CONTROL_MAX_TTL_MS);
  expect((await judge([max])).verified.has(max)).toBe(true);
  const key = (await root.host.readMemberKey(team, 'bob'))!;
  const entry = { team, from: 'bob', to: 'alice', msgId: 'm', text: '{"type":"shutdown_request"}' };
  for (const expires of [now + CONTROL_MAX_TTL_MS + 1, now + 10 * YEAR, now - 1]) {
    expect(thrown(() => signEntry(key, entry, { at: now, nonce: newNonce(), expires }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  }
});
