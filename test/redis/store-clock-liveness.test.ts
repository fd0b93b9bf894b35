/**
 * Liveness by the store's clock on Redis (issue 21 item 3), with a real redis-server and real
 * `mailroom agent` processes (the `worker` model). `$MAILROOM_BEAT_MS` shortens the timings and
 * keeps their structure: beat 1 s, dead after ttl + grace = 6 s, stall bound 24 s.
 * - The issue's stall: Redis SIGSTOPped for longer than the dead-after window (12 s) but shorter
 *   than the bound, while alice and bob run long tasks, carol is idle and `mailroom watch` sweeps;
 *   right after SIGCONT the lead runs commands (each sweeps). Nobody is declared dead, no task is
 *   unassigned or run twice, and the lead gets no "presumed dead" message.
 * - A command on a machine whose clock is an hour ahead declares nobody dead: the beats and the
 *   judgement are on Redis `TIME`, not on the callers' clocks.
 * - Not vacuous: a member killed with kill -9 is still declared dead after the window, once.
 * - A restart of Redis from a snapshot older than the whole window (a server without the AOF that
 *   lost its recent writes): the stored beats are stale on the
 *   server's clock, yet every member is alive and beats within a beat of the restart. Nobody is
 *   declared dead, by a command's sweep right after the restart nor by a runtime's sweeper.
 * Stall and freeze lengths are fault durations, not assertions; waits are for events.
 */
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { allBeating, hold, liveTeam, type LiveTeam } from '../helpers/live-team.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/runtime.js';

const BEAT_MS = 1_000;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function redisTeam(extraEnv: NodeJS.ProcessEnv = {}, aof = true): Promise<{ server: RedisServer; team: LiveTeam }> {
  const server = await startRedis({ aof });
  cleanups.push(() => server.stop());
  const team = await liveTeam(['--store', server.url], BEAT_MS, extraEnv);
  cleanups.push(() => team.cleanup());
  return { server, team };
}

describe('liveness by the Redis clock', () => {
  it('a Redis stall longer than the dead-after window but under the bound makes nobody dead and runs nothing twice', async () => {
    // Every call's deadline outlasts the stall: each beat sent during it waits and lands after SIGCONT.
    const { server, team } = await redisTeam({ MAILROOM_STORE_TIMEOUT: '60s' });
    for (const name of ['alice', 'bob', 'carol']) await team.spawnAgent(name);
    await team.addLongTask('Long one', 'alice');
    await team.addLongTask('Long two', 'bob');
    await until(async () => (await team.runsOf('1')).length > 0 && (await team.runsOf('2')).length > 0, 90_000, 'alice and bob running their tasks');
    await until(async () => allBeating(await team.states()), 60_000, 'all three beating');
    const claimed = (await team.tasks()).map((t) => t.fencingToken); // each claim's token: unchanged unless claimed again
    team.startWatch();

    server.proc().kill('SIGSTOP');
    await hold(9 * BEAT_MS);
    // The lead looks during the stall and right after it: every one of these commands sweeps before it reads.
    const looks = [team.run(['team', 'show', '--json']), team.run(['task', 'list', '--json']), team.run(['inbox', '--json'])];
    await hold(3 * BEAT_MS); // 12 s in all: > ttl + grace (6 s), < the 24 s bound; every beat is held up meanwhile
    server.proc().kill('SIGCONT');
    looks.push(team.run(['task', 'list']), team.run(['team', 'show']));
    for (const r of await Promise.all(looks)) expect(r.code, r.stderr).toBe(0);
    await until(async () => allBeating(await team.states()), 60_000, 'all three beating again');
    await hold(4 * BEAT_MS); // several sweep rounds of the three agents and of watch after the stall

    expect(await team.deadMessages()).toEqual([]);
    const tasks = await team.tasks();
    expect(tasks.map((t) => [t.id, t.owner, t.status, t.fencingToken])).toEqual([
      ['1', 'alice', 'in_progress', claimed[0]],
      ['2', 'bob', 'in_progress', claimed[1]],
    ]);
    expect(await team.runsOf('1')).toEqual(['alice']);
    expect(await team.runsOf('2')).toEqual(['bob']);
  }, 300_000);

  it('a command whose clock is an hour ahead declares nobody dead', async () => {
    const { team } = await redisTeam();
    await team.spawnAgent('alice');
    await team.addLongTask('Long', 'alice');
    await until(async () => (await team.runsOf('1')).length > 0, 90_000, 'alice running #1');
    const claimed = (await team.tasks())[0]!.fencingToken;
    const skewed = await team.skewedEnv(3_600_000);
    for (const args of [['task', 'list'], ['team', 'show'], ['inbox']]) {
      const r = await team.run(args, skewed);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(await team.deadMessages()).toEqual([]);
    expect((await team.tasks())[0]).toMatchObject({ owner: 'alice', status: 'in_progress', fencingToken: claimed });
  }, 180_000);

  it('a restart from a snapshot older than the window declares nobody dead and runs nothing twice', async () => {
    const { server, team } = await redisTeam({ MAILROOM_ALLOW_VOLATILE: '1', MAILROOM_STORE_TIMEOUT: '60s' }, false);
    for (const name of ['alice', 'bob']) await team.spawnAgent(name);
    await team.addLongTask('Long', 'alice');
    await until(async () => (await team.runsOf('1')).length > 0, 90_000, 'alice running #1');
    await until(async () => allBeating(await team.states()), 60_000, 'both beating');
    const claimed = (await team.tasks())[0]!.fencingToken;
    const raw = createClient({ url: server.url });
    await raw.connect();
    await raw.sendCommand(['SAVE']); // the snapshot the restart loads: every beat in it goes stale
    await raw.quit();
    // Longer than ttl + grace + the stall bound (30 beats): the snapshot's beats are older than any window.
    await hold(32 * BEAT_MS);
    await server.restart();
    const looks = await Promise.all([team.run(['task', 'list', '--json']), team.run(['team', 'show', '--json'])]);
    for (const r of looks) expect(r.code, r.stderr).toBe(0);
    await until(async () => allBeating(await team.states()), 60_000, 'both beating again');
    await hold(8 * BEAT_MS); // several rounds of bob's and alice's sweepers after the restart
    expect(await team.deadMessages()).toEqual([]);
    expect((await team.tasks()).map((t) => [t.id, t.owner, t.status, t.fencingToken])).toEqual([['1', 'alice', 'in_progress', claimed]]);
    expect(await team.runsOf('1')).toEqual(['alice']);
  }, 300_000);

  it('a member killed with kill -9 is still declared dead after the window, once, and its task runs again', async () => {
    const { team } = await redisTeam();
    const alice = await team.spawnAgent('alice');
    await team.addLongTask('Long', 'alice');
    await until(async () => (await team.runsOf('1')).length > 0, 90_000, 'alice running #1');
    await team.spawnAgent('carol');
    process.kill(alice, 'SIGKILL');
    await until(async () => (await team.deadMessages()).length > 0, 120_000, 'the lead told that alice is dead');
    expect(await team.deadMessages()).toEqual(['alice']);
    await until(async () => (await team.runsOf('1')).length === 2, 120_000, 'carol running #1 after alice died');
    expect(await team.runsOf('1')).toEqual(['alice', 'carol']);
    expect(await team.deadMessages()).toEqual(['alice']);
  }, 300_000);
});
