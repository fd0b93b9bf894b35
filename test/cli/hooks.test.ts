/**
 * Hooks through the CLI verbs (issue 13 item 2), real binary and real hook commands: TaskCreated and
 * TaskCompleted get Claude Code's JSON on stdin; exit 2 blocks (nothing created, the task stays in
 * progress) with the hook's stderr in the refusal; `{"continue": false}` refuses too; a hook that
 * hangs is killed after its timeout and reported, and does not block.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'bob');
});
afterEach(() => dir.cleanup());

async function hooks(event: string, command: string, timeout?: number): Promise<void> {
  const hook = timeout === undefined ? { type: 'command', command } : { type: 'command', command, timeout };
  await writeFile(join(dir.path, 'teams', 'demo', 'hooks.json'), JSON.stringify({ hooks: { [event]: [{ hooks: [hook] }] } }));
}

it('TaskCompleted exit 2 keeps the task in progress and returns the hook\'s stderr', async () => {
  await mailroomOk(dir.path, 'task', 'add', 'Ship the parser', '--description', 'with tests');
  await mailroomOk(dir.path, 'task', 'update', '1', '--status', 'in_progress', '--owner', 'bob');
  const seen = join(dir.path, 'input.json');
  await hooks('TaskCompleted', `cat > ${seen}; echo "run the tests first" >&2; exit 2`);

  const run = await mailroom(dir.path, 'task', 'update', '1', '--status', 'completed', '--as', 'bob');
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('NOT_PERMITTED');
  expect(run.stderr).toContain('run the tests first');
  expect(run.stderr).toContain('hook:TaskCompleted');
  expect((await openFsStores(dir.path).team.readTask('demo', '1'))?.status).toBe('in_progress');
  expect(JSON.parse(await readFile(seen, 'utf8'))).toMatchObject({ hook_event_name: 'TaskCompleted', team_name: 'demo', teammate_name: 'bob', task_id: '1', task_subject: 'Ship the parser', task_description: 'with tests' });

  await hooks('TaskCompleted', 'exit 0');
  await mailroomOk(dir.path, 'task', 'update', '1', '--status', 'completed', '--as', 'bob');
  expect((await openFsStores(dir.path).team.readTask('demo', '1'))?.status).toBe('completed');
});

it('TaskCreated exit 2 creates nothing; {"continue": false} refuses with its stopReason', async () => {
  await hooks('TaskCreated', 'echo "subjects need a ticket id" >&2; exit 2');
  const blocked = await mailroom(dir.path, 'task', 'add', 'Refactor');
  expect(blocked.code).not.toBe(0);
  expect(blocked.stderr).toContain('subjects need a ticket id');
  expect(await openFsStores(dir.path).team.listTasks('demo')).toEqual([]);

  await hooks('TaskCreated', `echo '{"continue": false, "stopReason": "board frozen"}'`);
  const stopped = await mailroom(dir.path, 'task', 'add', 'Refactor', '--json');
  expect(stopped.code).not.toBe(0);
  expect(stopped.stderr).toContain('board frozen');
  expect(await openFsStores(dir.path).team.listTasks('demo')).toEqual([]);
});

it('a hook that hangs is killed after its timeout and reported; it does not block', async () => {
  await hooks('TaskCreated', 'sleep 30', 0.5);
  const started = Date.now();
  const run = await mailroom(dir.path, 'task', 'add', 'Refactor');
  expect(run.code, run.stderr).toBe(0);
  expect(Date.now() - started).toBeLessThan(20_000);
  expect(run.stderr).toContain('TaskCreated hook "sleep 30" did not finish within 0.5 s: killed');
  expect((await openFsStores(dir.path).team.listTasks('demo')).map((t) => t.subject)).toEqual(['Refactor']);
});

it('a broken hooks file is refused naming it, and nothing is created', async () => {
  await writeFile(join(dir.path, 'teams', 'demo', 'hooks.json'), '{ not json');
  const run = await mailroom(dir.path, 'task', 'add', 'Refactor');
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('INVALID_ARGUMENT');
  expect(run.stderr).toContain('hooks.json');
  expect(await openFsStores(dir.path).team.listTasks('demo')).toEqual([]);
});
