/**
 * Liveness by the store's clock on the filesystem (issue 21 item 3), with real `mailroom agent`
 * processes (the `worker` model): a beat is the filesystem's stamp on the claim file's mtime, and a
 * sweeper judges against its own fresh beat (or a stamp of the store's clock). `$MAILROOM_BEAT_MS`
 * shortens the timings and keeps their structure: beat 200 ms, dead after ttl + grace = 1.2 s,
 * stall bound 4.8 s.
 * - A frozen sweeper (SIGSTOP of the idle agent carol and of `mailroom watch`, longer than the
 *   window, then SIGCONT) declares no live member dead: alice keeps her task, it ran once.
 * - A command whose clock is 3 s ahead (past the window; under the 10 s after which its own file
 *   locks would look stale to it and it could write nothing at all) declares nobody dead.
 * - Not vacuous: a member killed with kill -9 is declared dead after the window by a live runtime,
 *   and, with no runtime left, by the next command once the stall bound has passed.
 * Freeze lengths are fault durations, not assertions; waits are for events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { allBeating, hold, liveTeam, type LiveTeam } from '../helpers/live-team.js';
import { until } from '../helpers/runtime.js';

const BEAT_MS = 200;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function filesTeam(): Promise<LiveTeam> {
  const team = await liveTeam([], BEAT_MS);
  cleanups.push(() => team.cleanup());
  return team;
}

describe('liveness by the filesystem clock', () => {
  it('a frozen sweeper, resumed, declares no live member dead', async () => {
    const team = await filesTeam();
    await team.spawnAgent('alice');
    const carol = await team.spawnAgent('carol');
    await team.addLongTask('Long', 'alice');
    await until(async () => (await team.runsOf('1')).length > 0, 90_000, 'alice running #1');
    await until(async () => allBeating(await team.states()), 60_000, 'both beating');
    const claimed = (await team.tasks())[0]!.fencingToken; // unchanged unless claimed again
    const watch = team.startWatch();
    await hold(10 * BEAT_MS); // watch has swept a few times

    process.kill(carol, 'SIGSTOP');
    watch.kill('SIGSTOP');
    await hold(15 * BEAT_MS); // > ttl + grace (1.2 s), < the 4.8 s bound
    process.kill(carol, 'SIGCONT');
    watch.kill('SIGCONT');
    await until(async () => (await team.states()).carol === 'idle', 60_000, 'carol beating again');
    await hold(10 * BEAT_MS); // several sweep rounds of carol and watch after they woke

    expect(await team.deadMessages()).toEqual([]);
    expect((await team.tasks())[0]).toMatchObject({ owner: 'alice', status: 'in_progress', fencingToken: claimed });
    expect(await team.runsOf('1')).toEqual(['alice']);
  }, 240_000);

  it('a command whose clock is 3 s ahead declares nobody dead', async () => {
    const team = await filesTeam();
    await team.spawnAgent('alice');
    await team.addLongTask('Long', 'alice');
    await until(async () => (await team.runsOf('1')).length > 0, 90_000, 'alice running #1');
    const claimed = (await team.tasks())[0]!.fencingToken; // unchanged unless claimed again
    const skewed = await team.skewedEnv(15 * BEAT_MS);
    for (const args of [['task', 'list'], ['team', 'show'], ['inbox']]) {
      const r = await team.run(args, skewed);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(await team.deadMessages()).toEqual([]);
    expect((await team.tasks())[0]).toMatchObject({ owner: 'alice', status: 'in_progress', fencingToken: claimed });
  }, 180_000);

  it('a member killed with kill -9 is declared dead after the window by a live runtime, once', async () => {
    const team = await filesTeam();
    const alice = await team.spawnAgent('alice');
    await team.addLongTask('Long', 'alice');
    await until(async () => (await team.runsOf('1')).length > 0, 90_000, 'alice running #1');
    await team.spawnAgent('carol');
    process.kill(alice, 'SIGKILL');
    await until(async () => (await team.runsOf('1')).length === 2, 120_000, 'carol running #1 after alice died');
    expect(await team.runsOf('1')).toEqual(['alice', 'carol']);
    expect(await team.deadMessages()).toEqual(['alice']);
  }, 240_000);

  it('with no runtime left, the next command declares a killed member dead once the stall bound has passed', async () => {
    const team = await filesTeam();
    const alice = await team.spawnAgent('alice');
    await team.addLongTask('Long', 'alice');
    await until(async () => (await team.runsOf('1')).length > 0, 90_000, 'alice running #1');
    process.kill(alice, 'SIGKILL');
    // Each `task list` sweeps first; the sweep that acts is the one run after ttl + grace + bound (6 s).
    await until(async () => (await team.tasks())[0]!.status === 'pending', 120_000, '#1 pending again');
    expect((await team.tasks())[0]!.owner).toBeUndefined();
    expect(await team.deadMessages()).toEqual(['alice']);
  }, 240_000);
});
