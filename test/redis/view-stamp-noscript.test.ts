/**
 * Break test (session 16): a sender's view stamp must never be newer than the config and settings
 * it was read with (core/teams/known-config.ts `stampedView`: the stamp is asked first, in the same
 * tick, "so the server takes it before the reads"). That order holds only while the server already
 * holds the read-view-stamp script: on a server that does not (restarted, or its script cache
 * flushed) while it holds read-team and read-settings (another process read the team since), the
 * stamp's EVALSHA answers NOSCRIPT, the reads run, and the stamp is loaded and taken again after
 * them. A policy change completed between the reads and that second stamp then went unseen: the
 * send, judged on the old policy, appended under the new stamp and landed (bob → alice after "bob
 * may message only the lead" had completed).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMember } from '../../src/core/members/spawn.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { changePolicy } from '../../src/core/teams/policy.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { startProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let redis: RedisServer;
let proxy: TcpProxy;
let dir: TempDir;
beforeAll(async () => {
  redis = await startRedis();
  proxy = await startProxy(redis.port);
  dir = await makeTempDir();
});
afterAll(async () => {
  await proxy?.close();
  await redis?.stop();
  await dir?.cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a view stamp taken again after NOSCRIPT', () => {
  it('a policy change completed between the reads and the reloaded stamp refuses the send', async () => {
    const lead: Stores = await openStores({ kind: 'redis', url: redis.url, hostRoot: `${dir.path}/lead` });
    const sender: Stores = await openStores({ kind: 'redis', url: `redis://127.0.0.1:${proxy.port}`, hostRoot: `${dir.path}/sender` });
    const team = 'noscript';
    try {
      await createTeam({ root: lead, team });
      for (const name of ['alice', 'bob']) await spawnMember({ root: lead, team, name, cwd: dir.path });
      // The server forgets its scripts (as after a restart); then the team is read (another process
      // would), so read-team and read-settings are held again, read-view-stamp is not.
      expect(spawnSync('redis-cli', ['-p', String(redis.port), 'SCRIPT', 'FLUSH'], { encoding: 'utf8' }).stdout.trim()).toBe('OK');
      await sender.team.readConfig(team);
      await sender.team.readSettings(team);

      let changed = false;
      proxy.beforeReply(async (chunk) => {
        if (changed || !chunk.toString('latin1').includes('NOSCRIPT')) return;
        changed = true;
        await sleep(50); // the reads sent in the same tick as the stamp have run by now
        await changePolicy({ root: lead, team }, [{ rule: 'message.bob', who: ['team-lead'] }]);
      });
      const outcome = await sendMessage({ root: sender, team, from: 'bob', to: 'alice', text: 'after the policy change' }).then(
        () => 'sent',
        (err: { code?: string }) => err.code,
      );
      proxy.beforeReply(undefined);
      expect(changed, 'the stamp met NOSCRIPT (the case under test was run)').toBe(true);
      expect(outcome).toBe('NOT_PERMITTED');
      const inbox = await lead.team.readInbox(team, 'alice');
      expect(inbox.map((e) => e.text)).not.toContain('after the policy change');
    } finally {
      await sender.close();
      await lead.close();
    }
  }, 30_000);
});
