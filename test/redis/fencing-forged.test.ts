/**
 * A fencing token written into the store by hand (someone with the server's password; a task copied
 * in by `store copy` from a task file Claude Code or a person edited): whatever is stored, a claim
 * issues a safe integer (docs/format.md §8: "a whole number ≥ 1, a safe integer") that its owner's
 * fenced write passes with — as on the files store (test/cli/fencing-forged.test.ts) — and
 * the stored value no longer passes. A real redis-server.
 */
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { refusal, teamConfig, teammate } from '../contract/team-store.contract.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { scratchRedis } from '../helpers/redis-scratch.js';

const T = 'crew';
const { cleanups, open } = scratchRedis();

/** Sets task #1's `fence` hash field to `value` by hand (the only task hash holding one). */
async function forgeFence(server: RedisServer, value: string): Promise<void> {
  const raw = createClient({ url: server.url });
  await raw.connect();
  const keys: string[] = [];
  for await (const batch of raw.scanIterator({ MATCH: '*', COUNT: 1000 })) keys.push(...(Array.isArray(batch) ? batch : [batch]));
  const withFence: string[] = [];
  for (const k of keys) if ((await raw.type(k)) === 'hash' && (await raw.hExists(k, 'fence'))) withFence.push(k);
  expect(withFence).toHaveLength(1);
  await raw.hSet(withFence[0]!, 'fence', value);
  await raw.close();
}

describe('a fencing token forged into a Redis task hash', () => {
  const cases = [
    ['the largest safe integer (its next is not safe)', String(Number.MAX_SAFE_INTEGER)],
    ['past the safe integers', '9007199254740993'],
    ['15 digits (safe, but more than Lua prints whole)', '123456789012345'],
    ['not a number', 'abc'],
  ] as const;
  for (const [name, forged] of cases) {
    it(`${name}: the next claim issues a safe token its owner writes with; the forged one is refused`, async () => {
      const server = await startRedis({ aof: false });
      cleanups.push(() => server.stop());
      const store = await open(server);
      await store.createTeam(teamConfig(T));
      await store.addMember(T, teammate(T, 'alice'), { assignColor: true });
      await store.createTask(T, { subject: 'a', description: '' });
      await store.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' });
      await forgeFence(server, forged);

      const token = (await store.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' })).value!.fencingToken as number;
      expect(Number.isSafeInteger(token)).toBe(true);
      expect((await store.readTask(T, '1'))?.fencingToken).toBe(token);
      const stale = Number(forged);
      if (Number.isSafeInteger(stale)) expect((await refusal(store.patchTask(T, '1', { metadata: { exitCode: 1 }, fencingToken: stale }, { actor: 'alice' }))).code).toBe('TASK_FENCED');
      await store.patchTask(T, '1', { metadata: { exitCode: 0 }, fencingToken: token }, { actor: 'alice' });
      expect((await store.readTask(T, '1'))?.metadata).toEqual({ exitCode: 0 });
      // And the next claim still gets a new token, which passes in turn.
      const again = (await store.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' })).value!.fencingToken as number;
      expect(again).not.toBe(token);
      expect(Number.isSafeInteger(again)).toBe(true);
      expect((await refusal(store.patchTask(T, '1', { metadata: { exitCode: 2 }, fencingToken: token }, { actor: 'alice' }))).code).toBe('TASK_FENCED');
      await store.patchTask(T, '1', { metadata: { exitCode: 3 }, fencingToken: again }, { actor: 'alice' });
    }, 60_000);
  }
});
