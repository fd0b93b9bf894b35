/**
 * A task id that is not a positive decimal integer (`abc`, `0`, `-1`, `01`, `1.5`, `1e3`) is bad
 * input: exit 2 with INVALID_ARGUMENT saying what an id looks like, not "Task #abc not found"
 * (exit 3). A well-formed id without a task is TASK_NOT_FOUND, also for `task delete` (whose
 * message used to speak of "a dependency").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'alice');
  await mailroomOk(dir.path, 'task', 'add', 'first');
});
afterAll(() => dir.cleanup());

const COMMANDS: [string, (id: string) => string[]][] = [
  ['show', (id) => ['task', 'show', id]],
  ['update', (id) => ['task', 'update', id, '--subject', 'x']],
  ['claim', (id) => ['task', 'claim', id, '--as', 'alice']],
  ['delete', (id) => ['task', 'delete', id]],
];

describe('malformed task ids', () => {
  it.each(COMMANDS.flatMap(([name, args]) => ['abc', '0', '-1', '01', '1.5', '1e3', '1/../1'].map((id) => [name, id, args(id)] as const)))('task %s %s: INVALID_ARGUMENT, exit 2', async (_name, id, args) => {
    const run = await mailroom(dir.path, ...args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('INVALID_ARGUMENT');
    expect(run.stderr).toContain(JSON.stringify(id));
    expect(run.stderr).toMatch(/positive/);
  });
});

describe('well-formed ids without a task', () => {
  it.each(COMMANDS)('task %s 99: TASK_NOT_FOUND, exit 3', async (_name, args) => {
    const run = await mailroom(dir.path, ...args('99'));
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('Task #99 not found');
    expect(run.stderr).not.toContain('dependency');
  });
});

describe('a team that does not exist', () => {
  it('task list --team nope: TEAM_NOT_FOUND, exit 3 (not an empty board)', async () => {
    const run = await mailroom(dir.path, 'task', 'list', '--team', 'nope');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('TEAM_NOT_FOUND');
    expect(run.stdout).toBe('');
  });
});
