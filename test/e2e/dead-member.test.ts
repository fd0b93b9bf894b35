/**
 * A teammate that dies mid-task (issue 10 item 2), with a real `mailroom agent` process running a
 * scripted model in a long model call, killed with SIGKILL: its presence turns `dead` once its
 * claim missed three beats, and a sweep after the grace period puts its in_progress task back to
 * pending with no owner, sets its isActive false and tells the lead in a plain inbox message; two
 * sweeps at once do it once. Time is moved forward through the sweep's clock, not waited out (a
 * sweep with no presence of its own judges only after ttl + grace + the stall bound).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEAD_GRACE_MS, sweepDeadMembers } from '../../src/core/members/dead-members.js';
import { STALL_BOUND_MS } from '../../src/core/members/liveness.js';
import { readInbox } from '../../src/core/messages/inbox-read.js';
import { addTask } from '../../src/core/tasks/board.js';
import { claimTask } from '../../src/core/tasks/claim.js';
import { showTeam } from '../../src/core/teams/team-lifecycle.js';
import { presenceOf } from '../../src/domain/presence.js';
import { DEFAULT_READER_TTL_MS } from '../../src/domain/reader-claims.js';
import { openFsStores } from '../../src/store/open.js';
import { isAlive } from '../../src/runtime/process/kill.js';
import { spawnProcessTeammate } from '../../src/runtime/process/spawn.js';
import { until } from '../helpers/runtime.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const pids: number[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't');
});
afterEach(async () => {
  for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

describe('a teammate killed mid-task', () => {
  it('is dead after three missed beats; after the grace its task is pending again and the lead is told, once', async () => {
    const script = join(dir.path, 'slow.yaml');
    await writeFile(script, '- text: thinking for a long time\n  delayMs: 600000\n');
    const store = openFsStores(dir.path);
    await addTask({ root: openFsStores(dir.path), team: 't', subject: 'Long job' });
    const { process: started } = await spawnProcessTeammate({ root: openFsStores(dir.path), team: 't', name: 'bob', model: `scripted:${script}`, cwd: dir.path, prompt: 'Do the long job.' });
    pids.push(started.pid);
    await claimTask({ root: openFsStores(dir.path), team: 't', id: '1', as: 'bob' });
    // The beat and the isActive write of the change are two store steps: wait for both.
    await until(async () => {
      const bob = (await showTeam({ root: openFsStores(dir.path), team: 't' })).members.find((m) => m.name === 'bob');
      return bob?.presence.state === 'working' && bob.isActive === true;
    }, 15_000, 'bob working, isActive true');

    process.kill(started.pid, 'SIGKILL');
    await until(() => !isAlive(started.pid), 5_000, 'bob to die');
    const claims = await store.team.readClaims('t');
    const lastBeatAt = claims.find((c) => c.member === 'bob')!.lastBeatAt;
    expect(presenceOf('bob', claims, lastBeatAt + DEFAULT_READER_TTL_MS - 1).state).toBe('working');
    expect(presenceOf('bob', claims, lastBeatAt + DEFAULT_READER_TTL_MS)).toMatchObject({ state: 'dead', pid: started.pid });

    // Dead, but within the grace period: nothing is taken back yet.
    expect(await sweepDeadMembers({ root: openFsStores(dir.path), team: 't', now: () => lastBeatAt + DEFAULT_READER_TTL_MS + DEAD_GRACE_MS + STALL_BOUND_MS - 1 })).toEqual([]);
    expect(await store.team.readTask('t', '1')).toMatchObject({ status: 'in_progress', owner: 'bob' });

    const later = () => lastBeatAt + DEFAULT_READER_TTL_MS + DEAD_GRACE_MS + STALL_BOUND_MS; // a sweep with no presence of its own waits out the stall bound too
    const sweeps = await Promise.all([sweepDeadMembers({ root: openFsStores(dir.path), team: 't', now: later, by: 'sweeper-a' }), sweepDeadMembers({ root: openFsStores(dir.path), team: 't', now: later, by: 'sweeper-b' })]);
    expect(sweeps.flat().flatMap((s) => s.unassigned.map((t) => t.id))).toEqual(['1']);
    const task = await store.team.readTask('t', '1');
    expect(task?.status).toBe('pending');
    expect(task?.owner).toBeUndefined();
    expect((await store.team.readConfig('t')).members.find((m) => m.name === 'bob')?.isActive).toBe(false);

    const told = (await readInbox({ root: openFsStores(dir.path), team: 't' })).messages.filter((m) => m.entry.from === 'bob');
    expect(told).toHaveLength(1);
    expect(Object.keys(told[0]!.entry).sort()).toEqual(expect.arrayContaining(['from', 'text', 'summary', 'timestamp', 'read']));
    expect(told[0]!.entry.text).toContain('presumed dead');
    expect(told[0]!.entry.text).toContain('#1 "Long job"');
    const { events } = await store.team.readEvents('t');
    expect(events.filter((e) => e.kind === 'task' && e.action === 'updated' && e.task.id === '1' && e.task.status === 'pending' && e.actor?.startsWith('sweeper-'))).toHaveLength(1);
  }, 60_000);
});
