/**
 * Fencing tokens across a restart of Redis from stale data (docs/runtime.md "Fencing tokens"): a
 * server without the AOF restarted from a snapshot taken before the last claims has lost the tokens
 * issued since. A token is issued as max(previous + 1, the server's clock in ms), so the first claim
 * after the restart still gets a token above every token issued before it — without the lost data —
 * and every earlier holder's fenced write is refused. A real redis-server, SAVE, SIGKILL, restart.
 */
import { describe, expect, it } from 'vitest';
import { refusal, teamConfig, teammate } from '../contract/team-store.contract.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import type { RedisTeamStore } from '../../src/store/redis/index.js';
import { scratchRedis, saveSnapshot } from '../helpers/redis-scratch.js';

const T = 'crew';
const { cleanups, open } = scratchRedis();

/** A server without the AOF, a team of alice and bob with task #1 that alice claimed: its token `first`. */
async function claimedOnVolatileServer(): Promise<{ server: RedisServer; before: RedisTeamStore; first: number }> {
  const server = await startRedis({ aof: false });
  cleanups.push(() => server.stop());
  const before = await open(server);
  await before.createTeam(teamConfig(T));
  for (const m of ['alice', 'bob']) await before.addMember(T, teammate(T, m), { assignColor: true });
  await before.createTask(T, { subject: 'a', description: '' });
  const first = (await before.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' })).value!.fencingToken as number;
  return { server, before, first };
}

describe('fencing tokens after a Redis restart from an old snapshot', () => {
  it('the first claim after the restart gets a token above every earlier one; the earlier holders are fenced off', async () => {
    const { server, before, first } = await claimedOnVolatileServer();
    await saveSnapshot(server); // the snapshot the restart loads: alice owns #1 under `first`
    // After the snapshot: alice's runtime restarts (a re-claim fences off its earlier process), and again.
    const second = (await before.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' })).value!.fencingToken as number;
    const third = (await before.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' })).value!.fencingToken as number;
    expect(second).toBeGreaterThan(first);
    expect(third).toBeGreaterThan(second);

    await server.restart(); // SIGKILL, no shutdown save: the server loads the snapshot
    const after = await open(server);
    expect((await after.readTask(T, '1'))?.fencingToken).toBe(first); // the later tokens are lost with the claims
    const next = (await after.claimTask(T, { claimant: 'alice', id: '1' }, { actor: 'alice' })).value!.fencingToken as number;
    expect(next).toBeGreaterThan(third);
    for (const stale of [first, second, third]) {
      const err = await refusal(after.patchTask(T, '1', { metadata: { exitCode: 1 }, fencingToken: stale }, { actor: 'alice' }));
      expect(err.code).toBe('TASK_FENCED');
    }
    expect((await after.readTask(T, '1'))?.metadata).toBeUndefined();
    await after.patchTask(T, '1', { metadata: { exitCode: 0 }, fencingToken: next }, { actor: 'alice' });
    expect((await after.readTask(T, '1'))?.metadata).toEqual({ exitCode: 0 });
  }, 60_000);

  it('a new owner through a patch after the restart gets a token above every earlier one too', async () => {
    const { server, before, first } = await claimedOnVolatileServer();
    await saveSnapshot(server);
    await before.patchTask(T, '1', { owner: 'bob' }, { actor: 'team-lead' });
    const bobs = (await before.readTask(T, '1'))!.fencingToken as number;
    expect(bobs).toBeGreaterThan(first);

    await server.restart();
    const after = await open(server);
    await after.patchTask(T, '1', { owner: 'bob' }, { actor: 'team-lead' }); // the lead gives it to bob again
    const now = (await after.readTask(T, '1'))!.fencingToken as number;
    expect(now).toBeGreaterThan(bobs);
    const err = await refusal(after.patchTask(T, '1', { metadata: { exitCode: 1 }, fencingToken: bobs }, { actor: 'bob' }));
    expect(err.code).toBe('TASK_FENCED');
  }, 60_000);
});
