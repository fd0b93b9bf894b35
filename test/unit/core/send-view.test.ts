/**
 * A send holds its sender's view (issue 24): the append is made under the view stamp the roster,
 * settings and member records were read with, and compared with the team's in the append's own
 * step (Redis: the script; files: the first recipient's locked inbox step). A change that completed
 * before that step is never outrun — the send reads again and is judged by the new view — and a
 * team that keeps changing ends the send with VIEW_MOVED, nothing stored. Real stores on both
 * backends (a redis-server started here, files in a temp dir).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { broadcast, sendMessage, VIEW_ATTEMPTS } from '../../../src/core/messages/send.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { withConfig } from '../../../src/core/teams/known-config.js';
import { SenderView } from '../../../src/core/teams/sender-view.js';
import { changePolicy } from '../../../src/core/teams/policy.js';
import { openStores } from '../../../src/store/open.js';
import type { Stores } from '../../../src/store/selection.js';
import type { TeamStore } from '../../../src/store/team-store.js';
import { startRedis, type RedisServer } from '../../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let redis: RedisServer;
let dir: TempDir;
beforeAll(async () => {
  redis = await startRedis();
  dir = await makeTempDir();
});
afterAll(async () => {
  await redis.stop();
  await dir.cleanup();
});

let n = 0;
const backends: Record<string, () => Promise<Stores>> = {
  redis: () => openStores({ kind: 'redis', url: redis.url, hostRoot: dir.path }),
  files: () => openStores({ kind: 'fs', root: `${dir.path}/fs-${++n}` }),
};

/** `root` whose team store runs `before` ahead of each append (a real change, made by the real store). */
function changingBeforeEachAppend(root: Stores, before: () => Promise<unknown>): { root: Stores; appends: () => number } {
  let appends = 0;
  const team = new Proxy(root.team, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== 'appendMessages' || typeof value !== 'function') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      return async (...args: unknown[]) => {
        appends++;
        await before();
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  }) as TeamStore;
  return { root: { ...root, team }, appends: () => appends };
}

/** `root` whose team store counts its calls by method name (the real store does the work). */
function counting(root: Stores): { root: Stores; count: Map<string, number> } {
  const count = new Map<string, number>();
  const team = new Proxy(root.team, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        count.set(String(key), (count.get(String(key)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as TeamStore;
  return { root: { ...root, team }, count };
}

for (const [backend, open] of Object.entries(backends)) {
  describe(`a send under a kept view (${backend})`, () => {
    let root: Stores;
    let team: string;
    beforeEach(async () => {
      root = await open();
      team = `t${++n}`;
      await createTeam({ root, team });
      for (const name of ['alice', 'bob', 'carol']) await spawnMember({ root, team, name, cwd: dir.path });
      return () => root.team.close();
    });

    it('a policy tightened after the view was read: the send is judged by the new policy (NOT_PERMITTED), nothing stored', async () => {
      const kept = await withConfig({ root, team });
      expect(kept.viewStamp).toEqual(expect.any(String));
      await changePolicy({ root, team }, [{ rule: 'message.bob', who: ['team-lead'] }]);
      await expect(sendMessage({ ...kept, from: 'bob', to: 'alice', text: 'under the old policy' })).rejects.toMatchObject({ code: 'NOT_PERMITTED' });
      expect(await root.team.readInbox(team, 'alice')).toEqual([]);
    });

    it('the sender removed after the view was read: MEMBER_NOT_FOUND, nothing stored', async () => {
      const kept = await withConfig({ root, team });
      await root.team.removeMember(team, 'carol');
      await expect(sendMessage({ ...kept, from: 'carol', to: 'alice', text: 'after I left' })).rejects.toMatchObject({ code: 'MEMBER_NOT_FOUND' });
      await expect(broadcast({ ...kept, from: 'carol', text: 'after I left' })).rejects.toMatchObject({ code: 'MEMBER_NOT_FOUND' });
      expect(await root.team.readInbox(team, 'alice')).toEqual([]);
    });

    it('a kept view still current: sent without reading again, under its stamp', async () => {
      const kept = await withConfig({ root, team });
      const sent = await sendMessage({ ...kept, from: 'bob', to: 'alice', text: 'hello' });
      expect(sent.entry.text).toBe('hello');
      expect((await root.team.readInbox(team, 'alice')).map((e) => e.text)).toEqual(['hello']);
    });

    it(backend === 'redis' ? 'a kept SenderView: read once, then each send is the append alone; a change is found at the append and the view read again' : 'a SenderView on files keeps nothing: each send reads its view (stamp first), and is checked at the append', async () => {
      const { root: counted, count } = counting(root);
      const kept = new SenderView({ root: counted, team });
      const reads = () => (count.get('readConfig') ?? 0) + (count.get('readSettings') ?? 0);
      await sendMessage({ root: counted, team, from: 'bob', to: 'alice', text: 'one', senderView: kept });
      expect(reads()).toBe(2);
      await sendMessage({ root: counted, team, from: 'bob', to: 'alice', text: 'two', senderView: kept });
      expect(reads()).toBe(backend === 'redis' ? 2 : 4);
      expect(count.get('appendMessages')).toBe(2);
      await changePolicy({ root, team }, [{ rule: 'message.bob', who: ['team-lead'] }]);
      await expect(sendMessage({ root: counted, team, from: 'bob', to: 'alice', text: 'three', senderView: kept })).rejects.toMatchObject({ code: 'NOT_PERMITTED' });
      // Redis: refused at the append (VIEW_MOVED), read again, judged by the new policy (no second append).
      expect(count.get('appendMessages')).toBe(backend === 'redis' ? 3 : 2);
      await sendMessage({ root: counted, team, from: 'bob', to: 'team-lead', text: 'four', senderView: kept });
      expect(reads()).toBe(backend === 'redis' ? 4 : 8);
      expect((await root.team.readInbox(team, 'alice')).map((e) => e.text)).toEqual(['one', 'two']);
      expect((await root.team.readInbox(team, 'team-lead')).map((e) => e.text)).toEqual(['four']);
    });

    it(`a team changed before every append: VIEW_MOVED after ${VIEW_ATTEMPTS} appends, nothing stored`, async () => {
      let k = 0;
      const changing = changingBeforeEachAppend(root, () => root.team.updateMember(team, 'alice', { prompt: `p${++k}` }));
      const err = await sendMessage({ root: changing.root, team, from: 'bob', to: 'alice', text: 'never settles' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'VIEW_MOVED', details: { attempts: VIEW_ATTEMPTS } });
      expect(String((err as Error).message)).toContain('nothing was stored');
      expect(changing.appends()).toBe(VIEW_ATTEMPTS);
      expect(await root.team.readInbox(team, 'alice')).toEqual([]);
    });

    it('a team changed once before the append: the send reads again and lands on the second append', async () => {
      let changed = false;
      const changing = changingBeforeEachAppend(root, async () => {
        if (changed) return;
        changed = true;
        await root.team.updateMember(team, 'alice', { prompt: 'changed' });
      });
      await sendMessage({ root: changing.root, team, from: 'bob', to: 'alice', text: 'settles' });
      expect(changing.appends()).toBe(2);
      expect((await root.team.readInbox(team, 'alice')).map((e) => e.text)).toEqual(['settles']);
    });
  });
}
