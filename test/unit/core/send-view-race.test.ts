/**
 * Break test of "a send holds its sender's view" (issue 24): a stream of sends from long-lived
 * senders (each keeps the view it read once, as a teammate does, and sends under its stamp) while
 * the lead tightens the policy (bob may message only the lead) and removes a sender (carol). Real
 * stores on both backends. Checkers:
 * - both backends: no append of bob to alice succeeded that was CALLED after the policy change had
 *   completed, and none of carol's after her removal had completed (the append's step comes after
 *   its call: a change completed before the call completed before the step);
 * - Redis, where the journal is in step order: no message event of bob to alice after the policy's
 *   `settings` event, and none from carol after her `left` event.
 * Without the check in the append's step, the kept views (read before either change) let those
 * sends land.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { withConfig } from '../../../src/core/teams/known-config.js';
import { changePolicy } from '../../../src/core/teams/policy.js';
import { MailroomError } from '../../../src/errors.js';
import { openStores } from '../../../src/store/open.js';
import type { Stores } from '../../../src/store/selection.js';
import type { OutgoingMessage, TeamStore } from '../../../src/store/team-store.js';
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

interface AppendCall {
  from: string;
  to: string;
  calledAt: number;
  ok?: boolean;
}

/** `root` whose team store records each append call: its sender, when it was called, whether it succeeded. */
function recording(root: Stores, calls: AppendCall[]): Stores {
  const team = new Proxy(root.team, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (key !== 'appendMessages') return (value as (...a: unknown[]) => unknown).bind(target);
      return async (t: string, messages: readonly OutgoingMessage[], options: unknown) => {
        const call: AppendCall = { from: messages[0]!.entry.from, to: messages[0]!.to, calledAt: performance.now() };
        calls.push(call);
        try {
          const out: unknown = await (value as (...a: unknown[]) => Promise<unknown>).call(target, t, messages, options);
          call.ok = true;
          return out;
        } catch (err) {
          call.ok = false;
          throw err;
        }
      };
    },
  }) as TeamStore;
  return { ...root, team };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Resolves once `done()` holds, checking every 5 ms; fails the test after 20 s. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('the race did not reach its next step within 20 s');
    await sleep(5);
  }
}
const EXPECTED = new Set(['NOT_PERMITTED', 'MEMBER_NOT_FOUND', 'VIEW_MOVED']);

for (const [backend, selection] of [
  ['redis', () => ({ kind: 'redis' as const, url: redis.url, hostRoot: dir.path })],
  ['files', () => ({ kind: 'fs' as const, root: `${dir.path}/fs` })],
] as const) {
  describe(`a policy change and a member removal racing a stream of sends (${backend})`, () => {
    it('no append lands under a view older than a change that completed before it', async () => {
      const real = await openStores(selection());
      const team = 'race';
      await createTeam({ root: real, team });
      for (const name of ['alice', 'bob', 'carol']) await spawnMember({ root: real, team, name, cwd: dir.path });
      const calls: AppendCall[] = [];
      const root = recording(real, calls);
      let stop = false;
      const unexpected: unknown[] = [];
      const sender = async (from: string, i: number) => {
        // A long-lived sender: the view read once, kept for every send.
        const kept = await withConfig({ root, team });
        for (let k = 0; !stop; k++) {
          try {
            await sendMessage({ ...kept, from, to: 'alice', text: `${from}-${i}-${k}` });
          } catch (err) {
            if (!(err instanceof MailroomError) || !EXPECTED.has(err.code)) unexpected.push(err);
            await sleep(1);
          }
        }
      };
      const senders = [0, 1, 2, 3].map((i) => sender('bob', i)).concat([0, 1].map((i) => sender('carol', i)));
      // Events, not fixed sleeps: on a loaded machine 150 ms may see a single send land.
      const landedBy = (from: string) => calls.filter((c) => c.from === from && c.ok === true).length;
      await until(() => landedBy('bob') > 5 && landedBy('carol') > 5);
      await changePolicy({ root: real, team }, [{ rule: 'message.bob', who: ['team-lead'] }]);
      const policyDone = performance.now();
      const refusedAfter = (from: string, at: number) => calls.some((c) => c.from === from && c.ok === false && c.calledAt > at);
      await until(() => refusedAfter('bob', policyDone));
      await real.team.removeMember(team, 'carol');
      const removalDone = performance.now();
      await until(() => refusedAfter('carol', removalDone));
      stop = true;
      await Promise.all(senders);
      expect(unexpected).toEqual([]);

      const landed = (from: string, after: number) => calls.filter((c) => c.from === from && c.ok === true && c.calledAt > after);
      expect(landed('bob', policyDone), 'bob → alice appended after the policy change completed').toEqual([]);
      expect(landed('carol', removalDone), 'carol appended after her removal completed').toEqual([]);
      // The race was run: sends landed before each change, and were refused after.
      expect(calls.filter((c) => c.from === 'bob' && c.ok && c.calledAt < policyDone).length).toBeGreaterThan(5);
      expect(calls.filter((c) => c.from === 'carol' && c.ok && c.calledAt < removalDone).length).toBeGreaterThan(5);
      expect(calls.filter((c) => c.ok === false).length).toBeGreaterThan(0);

      if (backend === 'redis') {
        const events = (await real.team.readEvents(team)).events;
        const policyAt = events.findIndex((e) => e.kind === 'settings');
        const leftAt = events.findIndex((e) => e.kind === 'member' && e.action === 'left');
        expect(policyAt).toBeGreaterThan(0);
        expect(leftAt).toBeGreaterThan(policyAt);
        const after = (from: string, at: number) => events.slice(at + 1).filter((e) => e.kind === 'message' && e.entry.from === from).map((e) => (e.kind === 'message' ? e.entry.text : ''));
        expect(after('bob', policyAt), 'bob → alice journalled after the policy change').toEqual([]);
        expect(after('carol', leftAt), 'carol journalled after she left').toEqual([]);
      }
      await real.team.close();
    }, 30_000);
  });
}
