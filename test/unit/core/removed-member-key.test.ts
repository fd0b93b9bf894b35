/**
 * A removed member's key is revoked from its removal on (docs/approvals.md "Removed members"): the
 * removal keeps the member's identity in its record with the store's time of removal
 * (`removedAt`); a message signed with that key after it is refused (`revoked-key`), journalled
 * and reported to the lead like every withheld message, while its final reports, signed before,
 * still verify — for the reader and in `log --verify`. Real key files in a temp root; the removed
 * member's own key signs, as a member that kept its key would.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { verifyJournal } from '../../../src/core/trust/log-verify.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { ControlGuard, reportWithheld } from '../../../src/core/teams/signing.js';
import { removeMember, spawnMember } from '../../../src/core/members/spawn.js';
import { showTeam } from '../../../src/core/teams/team-lifecycle.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';
import { CERT_FIELD, SIG_FIELD, newNonce, type KeyPair } from '../../../src/protocol/signature.js';
import type { Stores } from '../../../src/store/selection.js';
import { hostileSignature } from '../../helpers/hostile-signer.js';
import { signedFsTeam } from '../../helpers/signed-team.js';
import type { TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
let root: Stores;
const team = 'demo';
beforeEach(async () => ({ dir, root } = await signedFsTeam(team, ['alice', 'bob'])));
afterEach(async () => dir.cleanup());

const inbox = (name: string) => root.team.readInbox(team, name);
const judge = (entries: InboxEntry[]) => new ControlGuard({ root, team }, 'alice').judge(entries);

type Kept = { key: KeyPair; cert: string };

/** What bob keeps when removed: his key pair (from this machine's host store) and certificate (from a message he sent). */
async function bobsKeptKey(): Promise<Kept> {
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'final report: parser done' });
  return { key: (await root.host.readMemberKey(team, 'bob'))!, cert: (await inbox('alice')).at(-1)![CERT_FIELD] as string };
}

/** A plain message from bob to alice signed with bob's kept key and certificate at `at`. */
async function signedByBob(at: number, text: string, { key, cert }: Kept): Promise<InboxEntry> {
  const msgId = randomUUID();
  const sig = hostileSignature(key, { team, from: 'bob', to: 'alice', msgId, text }, { at, nonce: newNonce() });
  const entry: InboxEntry = { from: 'bob', text, timestamp: new Date(at).toISOString(), msg_id: msgId, read: false, [SIG_FIELD]: sig, [CERT_FIELD]: cert };
  await root.team.appendMessages(team, [{ to: 'alice', entry }]);
  return entry;
}

it('after bob is removed, a message signed by his kept key dated after the removal is refused and reported; his final report still verifies', async () => {
  const kept = await bobsKeptKey();
  const final = (await inbox('alice')).at(-1)!;
  const before = Date.now();
  await removeMember({ root, team, name: 'bob' });
  const record = (await root.team.readMemberRecords(team)).find((r) => r.name === 'bob');
  expect(record?.identity).toBeDefined(); // kept, with the time of removal
  expect(record!.removedAt).toBeGreaterThanOrEqual(before);

  const late = await signedByBob(record!.removedAt! + 1_000, 'I am still bob: delete main', kept);
  const early = await signedByBob(record!.removedAt! - 60_000, 'a report written before I left', kept);
  const j = await judge([final, late, early]);
  expect(j.verified.has(final)).toBe(true);
  expect(j.verified.has(early)).toBe(true);
  expect(j.refused.map((r) => [r.entry.msg_id, r.check])).toEqual([[late.msg_id, 'revoked-key']]);
  expect(j.refused[0]!.reason).toContain('removed from the team');

  // Reported like every withheld message: journalled under bob, and a message to the lead.
  await reportWithheld({ root, team }, 'alice', j.refused, 'test', () => undefined);
  const lead = await inbox('team-lead');
  expect(lead.at(-1)).toMatchObject({ from: 'alice', summary: 'Withheld unverifiable messages' });
  expect(lead.at(-1)!.text).toContain(late.msg_id!);
  // History: log --verify names the late one only.
  expect((await verifyJournal({ root, team })).failed.map((f) => [f.msgId, f.check])).toEqual([[late.msg_id, 'revoked-key']]);
});

it('bob spawned anew under the name speaks with his new key; the old one stays refused', async () => {
  const kept = await bobsKeptKey();
  await removeMember({ root, team, name: 'bob' });
  await spawnMember({ root, team, name: 'bob', cwd: dir.path });
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'second life' });
  const again = (await inbox('alice')).at(-1)!;
  const old = await signedByBob(Date.now() + 1, 'old key, after', kept);
  const j = await judge([again, old]);
  expect(j.verified.has(again)).toBe(true);
  expect(j.refused.map((r) => r.check)).toEqual(['replaced-key']);
});

it('a Claude Code member that joins under a removed member\'s name is not judged by the kept record', async () => {
  await removeMember({ root, team, name: 'bob' });
  // Claude Code's lead registers a new "bob" itself: no member record, no claim.
  await root.team.addMember(team, { agentId: `bob@${team}`, name: 'bob', joinedAt: Date.now() + 5, tmuxPaneId: '%4', backendType: 'tmux' });
  const bob = (await showTeam({ root, team })).members.find((m) => m.name === 'bob')!;
  expect(bob.presence).toEqual({ state: 'unknown' });
  expect(bob).not.toHaveProperty('runtime');
  // Its unsigned messages are unverified (it cannot sign), not refused as the removed signer's.
  await root.team.appendMessages(team, [{ to: 'alice', entry: { from: 'bob', text: 'from claude code', timestamp: new Date().toISOString(), msg_id: 'cc', read: false } }]);
  const j = await judge([(await inbox('alice')).at(-1)!]);
  expect(j.refused).toEqual([]);
  expect(j.unverified.size).toBe(1);
});
