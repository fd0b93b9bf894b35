/**
 * Attacks on the session-19 trust rules with a real (stolen or kept) member key, real key files in
 * a temp root and the readers' own code (ControlGuard, `log --verify`): the one-hour cap on a
 * control message (docs/approvals.md "What is signed": `expiry-too-long`) at and just past its
 * bounds, and the revocation of a removed member's key (docs/approvals.md "Removed members") with
 * its stated limit — a removed member can date a message before its removal, and a control message
 * so dated dies within an hour of the removal.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { verifyJournal } from '../../../src/core/trust/log-verify.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { ControlGuard } from '../../../src/core/teams/signing.js';
import { removeMember, spawnMember } from '../../../src/core/members/spawn.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';
import { CERT_FIELD, CONTROL_MAX_TTL_MS, SIGNING_SKEW_MS, SIG_FIELD, newNonce, type KeyPair } from '../../../src/protocol/signature.js';
import type { Stores } from '../../../src/store/selection.js';
import { hostileSignature } from '../../helpers/hostile-signer.js';
import { signedFsTeam } from '../../helpers/signed-team.js';
import type { TempDir } from '../../helpers/temp-dir.js';
import { SEEN_LIMIT } from '../../../src/protocol/identity-files.js';

let dir: TempDir;
let root: Stores;
const team = 'demo';
/** A signing time or expiry the signature field carries (16 digits) past JavaScript's Date range (8.64e15 ms): the largest safe integer. */
const SIXTEEN_NINES = Number.MAX_SAFE_INTEGER;
beforeEach(async () => ({ dir, root } = await signedFsTeam(team, ['alice', 'bob'])));
afterEach(async () => dir.cleanup());

const inbox = (name: string) => root.team.readInbox(team, name);
const judge = (entries: InboxEntry[], now?: number) => new ControlGuard({ root, team, ...(now !== undefined ? { now: () => now } : {}) }, 'alice').judge(entries);

type Kept = { key: KeyPair; cert: string };

/** Bob's key pair (this machine's host store) and certificate (from a genuine message he sent). */
async function bobsKey(): Promise<Kept> {
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'a genuine one, for its certificate' });
  return { key: (await root.host.readMemberKey(team, 'bob'))!, cert: (await inbox('alice')).at(-1)![CERT_FIELD] as string };
}

/** A message from bob to alice signed with `kept` at `at` (a shutdown_request when `expires` is given), appended to alice's inbox. */
async function signedByBob(kept: Kept, at: number, expires?: number): Promise<InboxEntry> {
  const alice = (await root.team.readConfig(team)).members.find((m) => m.name === 'alice')!;
  const control = expires !== undefined;
  const text = control ? JSON.stringify({ type: 'shutdown_request', requestId: `shutdown-${randomUUID()}@alice`, from: 'bob', reason: 'stop', timestamp: new Date().toISOString() }) : `plain ${randomUUID()}`;
  const msgId = randomUUID();
  const sig = hostileSignature(kept.key, { team, from: 'bob', to: 'alice', msgId, text }, { at, nonce: newNonce(), ...(control ? { incarnation: alice.joinedAt, expires } : {}) });
  const entry: InboxEntry = { from: 'bob', text, timestamp: new Date().toISOString(), msg_id: msgId, read: false, [SIG_FIELD]: sig, [CERT_FIELD]: kept.cert };
  await root.team.appendMessages(team, [{ to: 'alice', entry }]);
  return entry;
}

const checks = async (entries: InboxEntry[], now?: number) => (await judge(entries, now)).refused.map((r) => r.check);

it('the cap, exactly: a lifetime of one hour verifies, one millisecond more is expiry-too-long (reader and log --verify)', async () => {
  const kept = await bobsKey();
  const now = Date.now();
  const atCap = await signedByBob(kept, now, now + CONTROL_MAX_TTL_MS);
  const past = await signedByBob(kept, now, now + CONTROL_MAX_TTL_MS + 1);
  const j = await judge([atCap, past], now);
  expect(j.verified.has(atCap)).toBe(true);
  expect(j.refused.map((r) => [r.entry.msg_id, r.check])).toEqual([[past.msg_id, 'expiry-too-long']]);
  expect((await verifyJournal({ root, team })).failed.map((f) => [f.msgId, f.check])).toEqual([[past.msg_id, 'expiry-too-long']]);
});

it('the skew, exactly: signed 5 minutes ahead of the reader verifies, 1 ms further is expiry-too-long; a reader whose clock lags more refuses honest ones', async () => {
  const kept = await bobsKey();
  const now = Date.now();
  const edge = await signedByBob(kept, now + SIGNING_SKEW_MS, now + SIGNING_SKEW_MS + CONTROL_MAX_TTL_MS);
  const beyond = await signedByBob(kept, now + SIGNING_SKEW_MS + 1, now + SIGNING_SKEW_MS + 1 + CONTROL_MAX_TTL_MS);
  expect(await checks([edge], now)).toEqual([]);
  expect(await checks([beyond], now)).toEqual(['expiry-too-long']);
  // A sender whose clock runs 10 minutes ahead: its honest shutdown_request is refused by a reader on time (the stated 5-minute bound).
  const honestAhead = await signedByBob(kept, now + 10 * 60_000, now + 10 * 60_000 + CONTROL_MAX_TTL_MS);
  expect(await checks([honestAhead], now)).toEqual(['expiry-too-long']);
  // log --verify (no clock) judges the lifetime only: all three are an hour long.
  expect((await verifyJournal({ root, team })).failed).toEqual([]);
});

it('an expiry or signing time past the Date range (16 digits) is refused with a reason, not a crash of the reader', async () => {
  const kept = await bobsKey();
  const now = Date.now();
  const forever = await signedByBob(kept, now, SIXTEEN_NINES);
  const future = await signedByBob(kept, SIXTEEN_NINES - CONTROL_MAX_TTL_MS, SIXTEEN_NINES);
  expect(await checks([forever], now)).toEqual(['expiry-too-long']);
  expect(await checks([future], now)).toEqual(['expiry-too-long']);
  const report = await verifyJournal({ root, team });
  expect(report.failed.map((f) => f.check)).toEqual(['expiry-too-long']); // the first; the second is an hour long
});

it('a removed member\'s message dated past the Date range is revoked-key, not a crash of the reader or of log --verify', async () => {
  const kept = await bobsKey();
  await removeMember({ root, team, name: 'bob' });
  const far = await signedByBob(kept, SIXTEEN_NINES);
  const j = await judge([far]);
  expect(j.refused.map((r) => r.check)).toEqual(['revoked-key']);
  expect(j.refused[0]!.reason).toContain('removed from the team');
  expect((await verifyJournal({ root, team })).failed.map((f) => f.check)).toEqual(['revoked-key']);
});

it('a removed member backdating a shutdown_request to just before its removal: obeyed at most an hour after the removal, then expired', async () => {
  const kept = await bobsKey();
  await removeMember({ root, team, name: 'bob' });
  const removedAt = (await root.team.readMemberRecords(team)).find((r) => r.name === 'bob')!.removedAt!;
  // The documented limit: the signature's time is the signer's claim. Dated 1 ms before the removal, with the longest lifetime.
  const backdated = await signedByBob(kept, removedAt - 1, removedAt - 1 + CONTROL_MAX_TTL_MS);
  expect(await checks([backdated], removedAt + 30 * 60_000)).toEqual([]); // within the hour: it verifies (the stated limit)
  expect(await checks([backdated], removedAt + CONTROL_MAX_TTL_MS)).toEqual(['expired']); // an hour after the removal it is dead
  // Dated as early as it can be (alice's joining: older is older-than-incarnation), it dies an hour after that.
  const joinedAt = (await root.team.readConfig(team)).members.find((m) => m.name === 'alice')!.joinedAt!;
  const old = await signedByBob(kept, joinedAt, joinedAt + CONTROL_MAX_TTL_MS);
  expect(await checks([old], joinedAt + CONTROL_MAX_TTL_MS + 1)).toEqual(['expired']);
  expect(await checks([await signedByBob(kept, joinedAt - 1, joinedAt - 1 + CONTROL_MAX_TTL_MS)], removedAt + 1)).toEqual(['older-than-incarnation']);
  // And no lifetime trick stretches it: a longer expiry is expiry-too-long, dated after the removal is revoked-key.
  expect(await checks([await signedByBob(kept, removedAt - 1, removedAt + 2 * CONTROL_MAX_TTL_MS)], removedAt + 1)).toEqual(['expiry-too-long']);
  expect(await checks([await signedByBob(kept, removedAt + 1, removedAt + 1 + CONTROL_MAX_TTL_MS)], removedAt + 2)).toEqual(['revoked-key']);
});

it('removed and re-added as a Claude Code member under the same name: the old key stays revoked', async () => {
  const kept = await bobsKey();
  await removeMember({ root, team, name: 'bob' });
  await root.team.addMember(team, { agentId: `bob@${team}`, name: 'bob', joinedAt: Date.now() + 5, tmuxPaneId: '%4', backendType: 'tmux' });
  const late = await signedByBob(kept, Date.now() + 10);
  expect(await checks([late])).toEqual(['revoked-key']);
  expect((await verifyJournal({ root, team })).failed.map((f) => f.check)).toEqual(['revoked-key']);
});

it('removed and spawned anew under the same name: the new key verifies; the old key signing after the removal is refused by the reader and by log --verify', async () => {
  const kept = await bobsKey();
  await removeMember({ root, team, name: 'bob' });
  await spawnMember({ root, team, name: 'bob', cwd: dir.path });
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'second life' });
  const fresh = (await inbox('alice')).at(-1)!;
  const old = await signedByBob(kept, Date.now() + 1);
  const j = await judge([fresh, old]);
  expect(j.verified.has(fresh)).toBe(true);
  expect(j.refused.map((r) => r.check)).toEqual(['replaced-key']);
  // History: the old incarnation's key, used after its removal, is not shown as verified.
  expect((await verifyJournal({ root, team })).failed.map((f) => f.msgId)).toEqual([old.msg_id]);
});

it('removed, spawned anew and removed again: the first incarnation\'s key signing after the second joined is refused', async () => {
  const first = await bobsKey();
  await removeMember({ root, team, name: 'bob' });
  await spawnMember({ root, team, name: 'bob', cwd: dir.path });
  await removeMember({ root, team, name: 'bob' }); // the kept record is now the second incarnation's
  const late = await signedByBob(first, Date.now() + 1);
  expect(await checks([late])).toEqual(['revoked-key']);
  expect((await verifyJournal({ root, team })).failed.map((f) => [f.msgId, f.check])).toEqual([[late.msg_id, 'revoked-key']]);
});

it('removed, a Claude Code member registered under the name and removed too: the kept key stays revoked', async () => {
  const kept = await bobsKey();
  await removeMember({ root, team, name: 'bob' });
  await root.team.addMember(team, { agentId: `bob@${team}`, name: 'bob', joinedAt: Date.now() + 5, tmuxPaneId: '%4', backendType: 'tmux' });
  await removeMember({ root, team, name: 'bob' });
  expect((await root.team.readMemberRecords(team)).find((r) => r.name === 'bob')?.removedAt).toBeTypeOf('number');
  const late = await signedByBob(kept, Date.now() + 10);
  expect(await checks([late])).toEqual(['revoked-key']);
});

it('a member key signing plain messages dated years ahead cannot raise the reader\'s replay floor past its own clock', async () => {
  const kept = await bobsKey();
  const YEAR = 365 * 86_400_000;
  const now = Date.now();
  // SEEN_LIMIT + 1 plain messages dated a year ahead, consumed by alice: the memory drops one, and its floor rises.
  const future: InboxEntry[] = [];
  for (let i = 0; i <= SEEN_LIMIT; i++) {
    const msgId = `f${i}`;
    const text = `from the future ${i}`;
    const sig = hostileSignature(kept.key, { team, from: 'bob', to: 'alice', msgId, text }, { at: now + YEAR + i, nonce: newNonce() });
    future.push({ from: 'bob', text, timestamp: new Date().toISOString(), msg_id: msgId, read: false, [SIG_FIELD]: sig, [CERT_FIELD]: kept.cert });
  }
  const guard = new ControlGuard({ root, team }, 'alice');
  expect((await guard.judge(future)).verified.size).toBe(future.length);
  await guard.remember(future);
  expect((await root.host.readSeen(team, 'alice'))!.floor).toBeLessThanOrEqual(Date.now());
  // bob's next genuine message, signed now, is still delivered.
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'an honest report' });
  const honest = (await inbox('alice')).at(-1)!;
  const j = await judge([honest]);
  expect(j.refused).toEqual([]);
  expect(j.verified.has(honest)).toBe(true);
});
