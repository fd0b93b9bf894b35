/**
 * The task board across the bridge (docs/bridge.md "Tasks"): Redis is the truth, a local edit is a
 * compare-and-set, a conflicting edit loses to Redis and is journalled. Task files are written as
 * Claude Code 2.1.109 writes them (its task lock, whole file rewritten).
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { syncTasks } from '../../src/bridge/tasks.js';
import type { Task } from '../../src/protocol/task.js';
import { openFsStores } from '../../src/store/open.js';
import { underClaudeLock } from '../helpers/claude-locked.js';
import { until } from '../helpers/runtime.js';
import { TEAM, twoMachines, type TwoMachines } from './setup.js';

let t: TwoMachines | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function taskFile(path: string): Promise<Task | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Task;
  } catch {
    return undefined;
  }
}

describe('bridge tasks', () => {
  it('a Claude Code board on A appears on B with its ids; an edit on B reaches Redis and A', async () => {
    t = await twoMachines({ tasks: true });
    await t.a.start();
    await t.b.start();
    const onB = await until(() => taskFile(t!.b.task('2')), 10_000, 'task 2 on B');
    expect(onB).toEqual(await taskFile(t.a.task('2')));
    await underClaudeLock<Task>(t.b.task('1'), (task) => ({ ...task, owner: 'observer', status: 'in_progress' }));
    await until(async () => (await taskFile(t!.a.task('1')))?.status === 'in_progress', 10_000, 'edit on A');
    expect(await t.a.remote.team.readTask(TEAM, '1')).toMatchObject({ owner: 'observer', status: 'in_progress' });
    expect(await taskFile(t.a.task('1'))).toMatchObject({ owner: 'observer', status: 'in_progress' });
  });

  it('a task created on B by Claude Code gets the next Redis id; a taken id keeps its Redis task', async () => {
    t = await twoMachines({ tasks: true });
    await t.a.start();
    await t.b.start();
    await until(() => taskFile(t!.b.task('2')), 10_000, 'board on B');
    await t.b.bridge!.stop();
    // Meanwhile a mailroom member creates #3 in Redis, and Claude Code on B creates its own #3.
    await t.a.remote.team.createTask(TEAM, { subject: 'from redis', description: 'r' });
    const mine = { id: '3', subject: 'from claude on B', description: 'b', status: 'pending', blocks: [], blockedBy: [] };
    await underClaudeLock(t.b.task('3'), () => mine, mine);
    await t.b.start();
    const moved = await until(async () => (await t!.b.remote.team.listTasks(TEAM)).find((x) => x.subject === 'from claude on B'), 10_000, 'created in Redis');
    expect(moved.id).toBe('4');
    await until(async () => (await taskFile(t!.b.task('4')))?.subject === 'from claude on B', 10_000, 'moved locally');
    expect(await taskFile(t.b.task('3'))).toMatchObject({ subject: 'from redis' });
    await until(async () => (await taskFile(t!.a.task('4')))?.subject === 'from claude on B', 10_000, 'on A');
  });

  it('edits on both sides since the base: Redis wins, the local edit is journalled; a lone local edit is a compare-and-set', async () => {
    t = await twoMachines({ tasks: true });
    const local = openFsStores(t.a.root).team;
    const remote = t.a.remote.team;
    await remote.createTeam(await local.readConfig(TEAM));
    const first = await syncTasks({ team: TEAM, local, remote }, {});
    expect(Object.keys(first.base)).toEqual(['1', '2']);
    // Both change #1 from the same base.
    await remote.patchTask(TEAM, '1', { owner: 'observer', status: 'in_progress' });
    await underClaudeLock<Task>(t.a.task('1'), (task) => ({ ...task, subject: 'local rename', owner: 'team-lead', status: 'in_progress' }));
    const second = await syncTasks({ team: TEAM, local, remote }, first.base);
    expect(second.conflicts).toEqual(['1']);
    expect(await taskFile(t.a.task('1'))).toMatchObject({ owner: 'observer', subject: first.base['1']!.subject });
    const journal = await local.readEvents(TEAM);
    const conflict = journal.events.find((e) => 'bridgeConflict' in e) as unknown as { bridgeConflict: { refused: Task } } | undefined;
    expect(conflict?.bridgeConflict.refused).toMatchObject({ subject: 'local rename', owner: 'team-lead' });
    // A local edit alone is applied to Redis.
    await underClaudeLock<Task>(t.a.task('2'), (task) => ({ ...task, description: 'edited here' }));
    const third = await syncTasks({ team: TEAM, local, remote }, second.base);
    expect(third.conflicts).toEqual([]);
    expect(await remote.readTask(TEAM, '2')).toMatchObject({ description: 'edited here' });
  });
});
