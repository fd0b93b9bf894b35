/**
 * The rules the Redis scripts re-express in Lua, checked against their TypeScript originals on
 * random inputs through a real server: ISO timestamps (prelude `iso`, against Date#toISOString),
 * the claim of the next ready task (against domain/task-board isReady) and the cycle refusal
 * (against findCycle).
 */
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCycle, indexTasks, isReady } from '../../src/domain/task-board.js';
import type { TeamConfig } from '../../src/protocol/config.js';
import type { Task } from '../../src/protocol/task.js';
import { openRedisTeamStore, type RedisTeamStore } from '../../src/store/redis/index.js';
import { preludeSource } from '../../src/store/redis/scripts.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let server: RedisServer;
let store: RedisTeamStore;
let raw: ReturnType<typeof createClient>;
beforeAll(async () => {
  server = await startRedis();
  store = await openRedisTeamStore({ kind: 'redis', url: server.url, hostRoot: server.dir });
  raw = createClient({ url: server.url });
  await raw.connect();
});
afterAll(async () => {
  await raw?.close();
  await store?.close();
  await server?.stop();
});

/** The prelude with a body of our own, run by EVAL. */
async function evalWithPrelude(body: string, args: string[]): Promise<unknown> {
  return raw.sendCommand(['EVAL', `${preludeSource()}\n${body}`, '0', ...args]);
}

let teamNo = 0;
async function freshTeam(): Promise<string> {
  const name = `p${++teamNo}`;
  const lead = { agentId: `team-lead@${name}`, name: 'team-lead' };
  await store.createTeam({ name, createdAt: 1, leadAgentId: lead.agentId, members: [lead] } as TeamConfig);
  await store.addMember(name, { agentId: `c@${name}`, name: 'c' });
  return name;
}

describe('Lua rules match their TypeScript originals', () => {
  it('iso(ms) is Date#toISOString for every instant from 1970 to 9999', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 253_402_300_799_999 }), async (ms) => {
        expect(await evalWithPrelude('return iso(tonumber(ARGV[1]))', [String(ms)])).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 300 },
    );
  });

  it('claims the lowest-id task isReady says is ready, or none', async () => {
    const board = fc.array(
      fc.record({ status: fc.constantFrom('pending', 'in_progress', 'completed'), owned: fc.boolean(), internal: fc.boolean(), blockers: fc.array(fc.nat(7), { maxLength: 3 }) }),
      { minLength: 1, maxLength: 8 },
    );
    await fc.assert(
      fc.asyncProperty(board, async (specs) => {
        const team = await freshTeam();
        for (const s of specs) await store.createTask(team, { subject: 's', description: '', metadata: s.internal ? { _internal: true } : undefined });
        for (const [i, s] of specs.entries()) {
          const id = String(i + 1);
          const edges = [...new Set(s.blockers.filter((b) => b < specs.length && b !== i))].map((b) => ({ blocked: id, blocker: String(b + 1) }));
          await store.linkTasks(team, edges).catch((err: { code?: string }) => expect(err.code).toBe('TASK_CYCLE'));
          await store.patchTask(team, id, { status: s.status as Task['status'], owner: s.owned ? 'team-lead' : null }).catch((err: { code?: string }) => expect(err.code).toBe('TASK_BLOCKED'));
        }
        const before = await store.listTasks(team);
        const byId = indexTasks(before);
        const expected = before.find((t) => isReady(t, byId))?.id;
        expect((await store.claimTask(team, { claimant: 'c' })).value?.id).toBe(expected);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses exactly the links findCycle says close a cycle', async () => {
    const edges = fc.array(fc.tuple(fc.nat(5), fc.nat(5)), { minLength: 1, maxLength: 10 });
    await fc.assert(
      fc.asyncProperty(edges, async (pairs) => {
        const team = await freshTeam();
        for (let i = 0; i < 6; i++) await store.createTask(team, { subject: 's', description: '' });
        for (const [a, b] of pairs) {
          const blocked = String(a + 1);
          const blocker = String(b + 1);
          const cycle = findCycle(blocked, blocker, indexTasks(await store.listTasks(team)));
          const linked = await store.linkTasks(team, [{ blocked, blocker }]).then(
            () => undefined,
            (err: { code?: string; details?: { cycle?: string[] } }) => err,
          );
          if (cycle) expect(linked).toMatchObject({ code: 'TASK_CYCLE', details: { cycle } });
          else expect(linked).toBeUndefined();
        }
      }),
      { numRuns: 60 },
    );
  });
});
