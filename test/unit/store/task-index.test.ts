/**
 * The filesystem store's index of ready tasks (src/store/fs/task-index.ts): `claim --next` uses it
 * (an unchanged task file is checked by stat, not read), it is kept by the store's task writes, and
 * it never wins over the task files — a task file Claude Code rewrote in place, created or removed
 * behind mailroom's back is what the next claim goes by.
 */
import { readFileSync, readdirSync, utimesSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addTask, claimNextTask, createTeam, openFsStores, spawnMember, updateTask } from '../../../src/index.js';
import { Layout } from '../../../src/store/fs/paths.js';
import { TaskIndex, readyTasks, taskIndexPath } from '../../../src/store/fs/task-index.js';
import type { FsContext } from '../../../src/store/fs/context.js';
import type { Task } from '../../../src/protocol/task.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const TEAM = 'idx';
let dir: TempDir;
let layout: Layout;

/** A task file as Claude Code writes it (in place, no lock, no mailroom). */
function writeClaudeTask(task: Partial<Task> & { id: string }): void {
  const full = { subject: `task ${task.id}`, description: '', status: 'pending', blocks: [], blockedBy: [], ...task };
  writeFileSync(layout.taskPath(TEAM, task.id), JSON.stringify(full, null, 2));
}

/** Makes every task file look old, so its index line is not racy (within 2 s of its mtime). */
function ageTaskFiles(ids: readonly string[]): void {
  const past = new Date(Date.now() - 60_000);
  for (const id of ids) utimesSync(layout.taskPath(TEAM, id), past, past);
}

/** The index's meta line, then every line of its chunks. */
function indexText(): string {
  const dirPath = taskIndexPath({ layout } as FsContext, TEAM);
  const chunks = readdirSync(dirPath).filter((n) => /^c\d+\.ndjson$/.test(n)).sort();
  return [readFileSync(join(dirPath, 'meta.json'), 'utf8'), ...chunks.map((c) => readFileSync(join(dirPath, c), 'utf8').split('\n').slice(1).join('\n'))].join('');
}

beforeEach(async () => {
  dir = await makeTempDir();
  layout = new Layout(dir.path);
  await createTeam({ root: openFsStores(dir.path), team: TEAM });
  await spawnMember({ root: openFsStores(dir.path), team: TEAM, name: 'w' });
  mkdirSync(layout.taskDir(TEAM), { recursive: true });
});
afterEach(() => dir.cleanup());

describe('the index of ready tasks (files)', () => {
  it('is built by the first claim --next and then answers from stats: an unchanged task file is not read again', async () => {
    for (let i = 1; i <= 20; i++) writeClaudeTask({ id: String(i), ...(i <= 5 ? { status: 'completed' } : {}) });
    ageTaskFiles(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('6');
    expect(indexText()).toMatch(/^\{"v":1,"upTo":"20","dir":"[0-9:.]+"\}\n/);
    const ctx = { layout, lock: {} } as FsContext;
    const reads: string[] = [];
    const index = TaskIndex.load(ctx, TEAM);
    const walk = readyTasks(index, async () => [], async (id) => (reads.push(id), JSON.parse(readFileSync(layout.taskPath(TEAM, id), 'utf8')) as Task));
    const first = await walk.next();
    expect(first.value?.task.id).toBe('7');
    // Only task 6, which the claim just rewrote (its line is racy), was read; 1–5 and 7 by stat alone.
    expect(reads).toEqual(['6']);
  });

  it('keeps the claim, a creation and an update in the index in the same step as the task write', async () => {
    const store = openFsStores(dir.path);
    for (let i = 0; i < 3; i++) await addTask({ root: store, team: TEAM, subject: `t${i}` });
    expect((await claimNextTask({ root: store, team: TEAM, as: 'w' }))?.id).toBe('1');
    await updateTask({ root: store, team: TEAM, id: '2', status: 'completed' });
    const text = indexText();
    expect(text).toContain('["1","in_progress","w"');
    expect(text).toContain('["2","completed",""');
    expect(text).toMatch(/"upTo":"3"/);
    expect((await claimNextTask({ root: store, team: TEAM, as: 'w' }))?.id).toBe('3');
  });

  it('goes by the task files after Claude Code edits them in place: a blocker completed, a task released, a task created, a task removed', async () => {
    writeClaudeTask({ id: '1', blocks: ['2'] });
    writeClaudeTask({ id: '2', blockedBy: ['1'] });
    writeClaudeTask({ id: '3' });
    writeClaudeTask({ id: '4' });
    ageTaskFiles(['1', '2', '3', '4']);
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('1');
    // Claude Code: task 1 completed (in place), so 2 is ready now and comes before 3.
    writeClaudeTask({ id: '1', blocks: ['2'], status: 'completed', owner: 'w' });
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('2');
    // Claude Code: task 2 released (owner dropped, pending again).
    writeClaudeTask({ id: '2', blockedBy: ['1'] });
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('2');
    // Claude Code: task 3 removed, task 5 created; 4 then 5.
    rmSync(layout.taskPath(TEAM, '3'));
    writeClaudeTask({ id: '5' });
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('4');
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('5');
    expect(await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' })).toBeUndefined();
    expect(indexText()).not.toContain('["3"');
  });

  it('is rebuilt from the task files when it is missing, unreadable or lacks a chunk', async () => {
    writeClaudeTask({ id: '1', status: 'completed' });
    writeClaudeTask({ id: '2' });
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('2');
    writeFileSync(join(taskIndexPath({ layout } as FsContext, TEAM), 'meta.json'), 'not an index');
    writeClaudeTask({ id: '3' });
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('3');
    expect(indexText()).toMatch(/^\{"v":1,"upTo":"3",/);
    rmSync(join(taskIndexPath({ layout } as FsContext, TEAM), 'c0.ndjson')); // a chunk lost: rebuilt
    writeClaudeTask({ id: '2' }); // released behind mailroom's back while the index was gone
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('2');
  });

  it('is another list\'s index once the task directory is made anew (a team deleted and created again)', async () => {
    for (const id of ['1', '2']) writeClaudeTask({ id });
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('1');
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('2');
    rmSync(layout.taskDir(TEAM), { recursive: true });
    mkdirSync(layout.taskDir(TEAM), { recursive: true });
    writeClaudeTask({ id: '1' });
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('1');
  });

  it('spans chunks of 256 ids, an empty chunk between them included', async () => {
    for (const id of ['1', '600', '601']) writeClaudeTask({ id });
    ageTaskFiles(['1', '600', '601']);
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('1');
    const dirPath = taskIndexPath({ layout } as FsContext, TEAM);
    expect(readdirSync(dirPath).sort()).toEqual(['c0.ndjson', 'c1.ndjson', 'c2.ndjson', 'meta.json']);
    writeClaudeTask({ id: '1' }); // released again by Claude Code
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('1');
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('600');
    expect((await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' }))?.id).toBe('601');
    expect(await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' })).toBeUndefined();
  });

  it('writes nothing into Claude Code\'s task directory', async () => {
    writeClaudeTask({ id: '1' });
    await claimNextTask({ root: openFsStores(dir.path), team: TEAM, as: 'w' });
    expect(readdirSync(layout.taskDir(TEAM)).filter((n) => !n.startsWith('.lock')).sort()).toEqual(['1.json']);
  });
});
