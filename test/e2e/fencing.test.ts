/**
 * Fencing tokens with real `mailroom agent` processes (issue 21 item 2): alice runs task #1's
 * command and is frozen (SIGSTOP) mid-task; a sweep (its clock moved past her claim's ttl and the
 * grace) takes #1 back; bob claims it and completes it; alice is resumed (SIGCONT) and her command
 * ends → her RunTaskCommand result is refused (TASK_FENCED), bob's outcome stays, the journal
 * names alice as the refused actor, and alice tells the lead once that she lost the task.
 * The commands wait for release files the test writes: no sleeps, no timed assertions.
 */
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEAD_GRACE_MS, sweepDeadMembers } from '../../src/core/members/dead-members.js';
import { STALL_BOUND_MS } from '../../src/core/members/liveness.js';
import { readInbox } from '../../src/core/messages/inbox-read.js';
import { addTask } from '../../src/core/tasks/board.js';
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
  for (const pid of pids.splice(0)) {
    if (!isAlive(pid)) continue;
    process.kill(pid, 'SIGCONT');
    process.kill(pid, 'SIGKILL');
  }
  await dir.cleanup();
});

const exists = (path: string) => access(path).then(() => true, () => false);

describe('a frozen owner swept while it runs its task', () => {
  it('wakes to a refused write: the new owner\'s outcome stays, the journal names it, the lead is told once', async () => {
    const d = dir.path;
    const command = `touch "${d}/started-$MAILROOM_AGENT"; while [ ! -f "${d}/release-$MAILROOM_AGENT" ] && [ -d "${d}" ]; do sleep 0.05; done; echo "by $MAILROOM_AGENT"`;
    await addTask({ root: openFsStores(d), team: 't', subject: 'Build', metadata: { command } });
    const store = openFsStores(d).team;

    const alice = (await spawnProcessTeammate({ root: openFsStores(d), team: 't', name: 'alice', model: 'worker', cwd: d, prompt: 'Work.' })).process;
    pids.push(alice.pid);
    await until(() => exists(join(d, 'started-alice')), 60_000, 'alice running #1');
    const alices = (await store.readTask('t', '1'))!;
    expect(alices).toMatchObject({ owner: 'alice', status: 'in_progress' });
    process.kill(alice.pid, 'SIGSTOP');

    // Swept as dead: the sweep's clock is moved past her claim's ttl and the grace.
    const claim = (await store.readClaims('t')).find((c) => c.member === 'alice')!;
    const later = () => claim.lastBeatAt + claim.ttlMs + DEAD_GRACE_MS + STALL_BOUND_MS;
    expect((await sweepDeadMembers({ root: openFsStores(d), team: 't', now: later, by: 'sweeper' })).map((s) => s.name)).toEqual(['alice']);
    expect(await store.readTask('t', '1')).toMatchObject({ status: 'pending' });

    const bob = (await spawnProcessTeammate({ root: openFsStores(d), team: 't', name: 'bob', model: 'worker', cwd: d, prompt: 'Work.' })).process;
    pids.push(bob.pid);
    await until(() => exists(join(d, 'started-bob')), 60_000, 'bob running #1');
    await writeFile(join(d, 'release-bob'), '');
    const done = await until(async () => {
      const t = await store.readTask('t', '1');
      return t?.status === 'completed' ? t : undefined;
    }, 60_000, 'bob completing #1');
    expect(done).toMatchObject({ owner: 'bob', metadata: { exitCode: 0 } });
    expect(done.fencingToken).toBeGreaterThan(alices.fencingToken as number);
    expect(String(done.metadata?.outputTail)).toContain('by bob');

    // alice wakes; her command ends; her result must not land.
    await writeFile(join(d, 'release-alice'), '');
    process.kill(alice.pid, 'SIGCONT');
    const lost = await until(async () => {
      const fromAlice = (await readInbox({ root: openFsStores(d), team: 't', includeArchived: true })).messages.filter((m) => m.entry.from === 'alice' && m.entry.text.includes('lost task #1'));
      return fromAlice.length > 0 ? fromAlice : undefined;
    }, 60_000, 'alice telling the lead she lost #1');
    expect(lost).toHaveLength(1);
    expect(lost[0]!.entry.text).toContain('bob owns it now');

    const after = await store.readTask('t', '1');
    expect(after).toEqual(done);
    const { events } = await store.readEvents('t');
    const refused = events.filter((e) => e.kind === 'refused' && e.code === 'TASK_FENCED');
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.every((e) => e.actor === 'alice' && (e as { target?: string }).target === '#1')).toBe(true);
    // Every accepted write about #1 after bob's claim is bob's.
    const bobClaim = events.findIndex((e) => e.kind === 'task' && e.task.id === '1' && e.task.owner === 'bob' && e.actor === 'bob');
    const later1 = events.slice(bobClaim).filter((e) => e.kind === 'task' && e.task.id === '1');
    expect(later1.length).toBeGreaterThan(0);
    expect(later1.every((e) => e.actor === 'bob')).toBe(true);
    // The lead heard of the loss once, and no "completed" report from alice.
    const lead = (await readInbox({ root: openFsStores(d), team: 't', includeArchived: true })).messages.filter((m) => m.entry.from === 'alice');
    expect(lead.filter((m) => /Completed #1/.test(m.entry.text))).toEqual([]);
    expect(lead.filter((m) => m.entry.text.includes('lost task #1'))).toHaveLength(1);
  }, 240_000);
});
