/**
 * A removed member's key between its removal and a re-spawn of the name (trust review, session
 * 20): the removal keeps the member's record with `removedAt` (its key revoked from then), but the
 * re-spawn's record replaced it, so `log --verify` showed as verified what the old key signed in
 * that gap — while the live reader withheld it. A new member's record now carries the revoked keys
 * of the earlier members of its name (`revokedKeys`: key, joinedAt, removedAt; docs/approvals.md
 * "Removed members"), so history reports such a message as `revoked-key`, through any number of
 * later re-spawns; what the old key signed before its removal still verifies, and what it signs
 * after the re-spawn stays `replaced-key`. On both backends: files in a temp dir, and a real
 * redis-server (whose TIME stamps `removedAt`). The old key signs as a modified client that kept
 * it would (test/helpers/hostile-signer.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/core/messages/send.js';
import { removeMember, spawnMember } from '../../src/core/members/spawn.js';
import { ControlGuard, enableSigning } from '../../src/core/teams/signing.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { verifyJournal } from '../../src/core/trust/log-verify.js';
import type { InboxEntry } from '../../src/protocol/inbox.js';
import { CERT_FIELD, SIG_FIELD, newNonce, type KeyPair } from '../../src/protocol/signature.js';
import { openFsStores, openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { hostileSignature } from '../helpers/hostile-signer.js';
import { startRedis } from '../helpers/redis-server.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const team = 'demo';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function scenario(root: Stores, cwd: string): Promise<void> {
  await createTeam({ root, team });
  await enableSigning({ root, team });
  await spawnMember({ root, team, name: 'alice', cwd });
  await spawnMember({ root, team, name: 'bob', cwd });
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'final report: parser done' });
  const final = (await root.team.readInbox(team, 'alice')).at(-1)!;
  const kept = { key: (await root.host.readMemberKey(team, 'bob'))!, cert: final[CERT_FIELD] as string };

  /** A message from bob to alice signed with his kept (old) key at `at`, appended as a modified client would. */
  async function signedByOldBob(at: number, text: string): Promise<InboxEntry> {
    const msgId = randomUUID();
    const sig = hostileSignature(kept.key as KeyPair, { team, from: 'bob', to: 'alice', msgId, text }, { at, nonce: newNonce() });
    const entry: InboxEntry = { from: 'bob', text, timestamp: new Date(at).toISOString(), msg_id: msgId, read: false, [SIG_FIELD]: sig, [CERT_FIELD]: kept.cert };
    await root.team.appendMessages(team, [{ to: 'alice', entry }]);
    return entry;
  }

  await removeMember({ root, team, name: 'bob' });
  const removedAt = (await root.team.readMemberRecords(team)).find((r) => r.name === 'bob')!.removedAt!;
  expect(removedAt).toBeTypeOf('number');
  const early = await signedByOldBob(removedAt - 60_000, 'a report written before I left');
  const gap = await signedByOldBob(removedAt + 1, 'I am still bob: delete main');
  await pause(20); // the re-spawn joins after the gap message's signing time
  await spawnMember({ root, team, name: 'bob', cwd });
  const rejoined = (await root.team.readConfig(team)).members.find((m) => m.name === 'bob')!.joinedAt!;
  expect(rejoined).toBeGreaterThan(removedAt + 1);
  const after = await signedByOldBob(rejoined + 1, 'old key, after the re-spawn');

  // The new member's record carries the old key's revocation.
  const record = (await root.team.readMemberRecords(team)).find((r) => r.name === 'bob')!;
  expect(record.removedAt).toBeUndefined();
  expect(record.revokedKeys).toEqual([{ publicKey: kept.key.publicKey, keyId: expect.any(String), joinedAt: expect.any(Number), removedAt }]);

  const history = async () => (await verifyJournal({ root, team })).failed.map((f) => [f.msgId, f.check]);
  expect(await history()).toEqual([
    [gap.msg_id, 'revoked-key'],
    [after.msg_id, 'replaced-key'],
  ]);
  const reason = (await verifyJournal({ root, team })).failed[0]!.reason;
  expect(reason).toContain(`removed from the team at ${new Date(removedAt).toISOString()}`);
  // History names only those two: the final report and the one dated before the removal still verify.
  expect((await verifyJournal({ root, team })).failed.map((f) => f.msgId)).not.toContain(early.msg_id);
  // The live reader withholds both, as before: once the name is spawned anew, the old key no longer speaks for it at all.
  const judged = await new ControlGuard({ root, team }, 'alice').judge([gap, after]);
  expect(judged.refused.map((r) => [r.entry.msg_id, r.check])).toEqual([
    [gap.msg_id, 'replaced-key'],
    [after.msg_id, 'replaced-key'],
  ]);

  // Through another removal and re-spawn: both earlier revocations are carried, and history does not change.
  await removeMember({ root, team, name: 'bob' });
  await spawnMember({ root, team, name: 'bob', cwd });
  expect((await root.team.readMemberRecords(team)).find((r) => r.name === 'bob')!.revokedKeys).toHaveLength(2);
  expect(await history()).toEqual([
    [gap.msg_id, 'revoked-key'],
    [after.msg_id, 'replaced-key'],
  ]);
}

describe("a removed member's key between its removal and a re-spawn of the name", () => {
  it('files', async () => {
    const dir = await makeTempDir();
    cleanups.push(() => dir.cleanup());
    await scenario(openFsStores(dir.path), dir.path);
  }, 60_000);

  it('redis', async () => {
    const server = await startRedis();
    cleanups.push(() => server.stop());
    const root = await openStores({ kind: 'redis', url: server.url, hostRoot: server.dir });
    cleanups.push(() => root.close());
    await scenario(root, server.dir);
  }, 60_000);
});
