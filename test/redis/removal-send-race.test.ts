/**
 * A removal racing sends from the member removed (docs/approvals.md "Removed members"), on both
 * backends (files in a temp dir; a real redis-server, whose TIME stamps `removedAt`): bob sends a
 * stream of signed messages to alice while the lead removes him. A send begun after the removal
 * returned is refused (MEMBER_NOT_FOUND); every message bob's send acknowledged before the removal
 * began verifies (his final reports); every message of his is
 * either verified and signed no later than `removedAt`, or refused as `revoked-key` and signed
 * after it — never another failure, never verified when signed after the removal — for alice's
 * reader and for `log --verify`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/core/messages/send.js';
import { removeMember, spawnMember } from '../../src/core/members/spawn.js';
import { ControlGuard, enableSigning } from '../../src/core/teams/signing.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { verifyJournal } from '../../src/core/trust/log-verify.js';
import { SIG_FIELD, decodeSignature } from '../../src/protocol/signature.js';
import { openFsStores, openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { startRedis } from '../helpers/redis-server.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const team = 'demo';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function race(root: Stores, cwd: string): Promise<void> {
  await createTeam({ root, team });
  await enableSigning({ root, team });
  await spawnMember({ root, team, name: 'alice', cwd });
  await spawnMember({ root, team, name: 'bob', cwd });

  const acked: string[] = []; // texts whose send resolved
  let removalStarted = false;
  const ackedBeforeRemoval: string[] = [];
  let stop = false;
  let removed = false;
  const refusedAfter: string[] = []; // codes of sends begun after the removal returned
  const sentAfter: string[] = [];
  const sender = (async () => {
    for (let n = 0; !stop && n < 400; n++) {
      const text = `report ${n}`;
      const begunAfter = removed;
      try {
        await sendMessage({ root, team, from: 'bob', to: 'alice', text });
      } catch (e) {
        if (begunAfter) refusedAfter.push((e as { code?: string }).code ?? String(e));
        continue;
      }
      if (begunAfter) sentAfter.push(text);
      acked.push(text);
      if (!removalStarted) ackedBeforeRemoval.push(text);
    }
  })();
  while (acked.length < 5) await new Promise((r) => setTimeout(r, 5));
  removalStarted = true;
  await removeMember({ root, team, name: 'bob' });
  removed = true;
  while (refusedAfter.length < 3) await new Promise((r) => setTimeout(r, 5)); // sends go on past the removal
  stop = true;
  await sender;
  // The send path itself refuses a sender no longer on the roster: only a modified client gets a message past it (test/unit/core/removed-member-key.test.ts).
  expect(sentAfter).toEqual([]);
  expect([...new Set(refusedAfter)]).toEqual(['MEMBER_NOT_FOUND']);

  const removedAt = (await root.team.readMemberRecords(team)).find((r) => r.name === 'bob')?.removedAt;
  expect(removedAt).toBeTypeOf('number');
  const fromBob = (await root.team.readInbox(team, 'alice')).filter((e) => e.from === 'bob');
  expect(fromBob.length).toBeGreaterThanOrEqual(ackedBeforeRemoval.length);
  const judged = await new ControlGuard({ root, team }, 'alice').judge(fromBob);
  for (const entry of fromBob) {
    const at = decodeSignature(entry[SIG_FIELD])!.at;
    const refused = judged.refused.find((r) => r.entry === entry);
    if (at <= removedAt!) expect([entry.text, judged.verified.has(entry)]).toEqual([entry.text, true]);
    else expect([entry.text, refused?.check]).toEqual([entry.text, 'revoked-key']);
  }
  expect(judged.refused.every((r) => r.check === 'revoked-key')).toBe(true);
  for (const text of ackedBeforeRemoval) expect(judged.verified.has(fromBob.find((e) => e.text === text)!)).toBe(true);
  const history = await verifyJournal({ root, team });
  expect(history.failed.every((f) => f.check === 'revoked-key')).toBe(true);
  expect(history.failed.length).toBe(judged.refused.length);
}

describe('a removal racing sends from the removed member', () => {
  it('files', async () => {
    const dir = await makeTempDir();
    cleanups.push(() => dir.cleanup());
    await race(openFsStores(dir.path), dir.path);
  }, 90_000);

  it('redis', async () => {
    const server = await startRedis();
    cleanups.push(() => server.stop());
    const root = await openStores({ kind: 'redis', url: server.url, hostRoot: server.dir });
    cleanups.push(() => root.close());
    await race(root, server.dir);
  }, 90_000);
});
