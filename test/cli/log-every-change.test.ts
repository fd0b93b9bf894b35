/**
 * Issue 9 item 7: `mailroom log` is an audit trail — every task change is shown, metadata-only
 * updates too (they were deduplicated away: 100 of 200 updates shown). Runs of metadata-only
 * updates of one task may share a line that says how many events it stands for; `--expand` and
 * `--json` list each.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { addTask } from '../../src/core/tasks/board.js';
import { updateTask } from '../../src/core/tasks/update.js';
import { openFsStores } from '../../src/store/open.js';

const body = (line: string) => line.replace(/^\S+Z {2}/, '');

describe('mailroom log shows every change', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir();
    const o = { root: openFsStores(dir.path), team: 'audit' };
    await createTeam(o);
    await addTask({ ...o, subject: 'Round 0' });
    // 200 updates: every other one touches only metadata.
    for (let i = 1; i <= 100; i++) {
      await updateTask({ ...o, id: '1', subject: `Round ${i}` });
      await updateTask({ ...o, id: '1', metadata: { progress: i } });
    }
    // Then five metadata-only updates in a row, which the default output collapses.
    for (let i = 1; i <= 5; i++) await updateTask({ ...o, id: '1', metadata: { step: i } });
  });
  afterEach(async () => dir.cleanup());

  it('lists all 205 updates with --json and --expand', async () => {
    const json = await mailroomOk(dir.path, 'log', '--json');
    const updates = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; action?: string }).filter((e) => e.kind === 'task' && e.action === 'updated');
    expect(updates).toHaveLength(205);
    const expanded = (await mailroomOk(dir.path, 'log', '--expand')).stdout.trim().split('\n').map(body);
    expect(expanded.filter((l) => l.startsWith('task #1') && !l.includes('created'))).toHaveLength(205);
    expect(expanded).toContain('task #1 "Round 1": metadata progress → 1');
    expect(expanded).toContain('task #1 "Round 100": metadata step → 5');
  });

  it('collapses a run of metadata-only updates into one line that counts them, dropping none', async () => {
    const lines = (await mailroomOk(dir.path, 'log')).stdout.trim().split('\n').map(body);
    const task = lines.filter((l) => l.startsWith('task #1') && !l.includes('created'));
    // 100 subject changes, 99 lone metadata updates, and one line for the last six metadata-only ones.
    expect(task).toHaveLength(200);
    expect(task.at(-1)).toBe('task #1 "Round 100": metadata progress → 100, metadata step → 5 (6 metadata updates; --expand lists each)');
    expect(task.filter((l) => /: metadata progress → \d+$/.test(l))).toHaveLength(99);
    const tail = (await mailroomOk(dir.path, 'log', '--tail', '1', '--no-record')).stdout.trim().split('\n').map(body);
    expect(tail).toEqual([task.at(-1)]);
  });

  it('records a metadata-only change another client made to the task file', async () => {
    const file = `${dir.path}/tasks/audit/1.json`;
    const task = JSON.parse(await readFile(file, 'utf8')) as { metadata?: Record<string, unknown> };
    await writeFile(file, JSON.stringify({ ...task, metadata: { ...task.metadata, reviewer: 'bob' } }));
    const lines = (await mailroomOk(dir.path, 'log', '--expand', '--tail', '1')).stdout.trim().split('\n').map(body);
    expect(lines).toEqual(['task #1 "Round 100": metadata reviewer → "bob"']);
    const json = (await mailroomOk(dir.path, 'log', '--json', '--tail', '1', '--no-record')).stdout.trim();
    expect(JSON.parse(json)).toMatchObject({ source: 'observed', kind: 'task', action: 'updated' });
  });
});
