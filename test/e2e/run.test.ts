/**
 * `mailroom run` end to end with worker teammates, through the real binary: the demo script
 * (three workers, six shell tasks with dependencies), and a run whose task fails.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const DEMO = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));
let dir: TempDir;
beforeEach(async () => (dir = await makeTempDir()));
afterEach(() => dir.cleanup());

function runDemo(args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string }> {
  const childEnv = { ...process.env, ...env };
  if (!('MAILROOM_DEMO_KEEP' in env)) delete childEnv.MAILROOM_DEMO_KEEP;
  return new Promise((resolve) => execFile(process.execPath, [DEMO, ...args], { env: childEnv }, (err, stdout) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout })));
}

const rootOf = (stdout: string) => /demo: store (\S+),/.exec(stdout)?.[1];

describe('npm run demo: its temporary root', () => {
  // It was left behind on every run (new-user trial, session 20).
  it('is removed at the end of a run that succeeded, saying so and how to keep it', async () => {
    const { code, stdout } = await runDemo();
    const root = rootOf(stdout);
    try {
      expect(code).toBe(0);
      expect(root).toBeDefined();
      expect(stdout).toContain('6/6 tasks completed');
      expect(existsSync(root!)).toBe(false);
      expect(stdout).toContain(`demo: removed ${root} (store and work directory, with the files above). To keep them and look around, run \`npm run demo -- --keep\` or set MAILROOM_DEMO_KEEP=1.`);
      expect(stdout).not.toContain('Look around');
    } finally {
      if (root) await rm(root, { recursive: true, force: true });
    }
  });

  it('is kept with MAILROOM_DEMO_KEEP=1', async () => {
    const { code, stdout } = await runDemo([], { MAILROOM_DEMO_KEEP: '1' });
    const root = rootOf(stdout);
    try {
      expect(code).toBe(0);
      expect(existsSync(join(root!, 'work', 'out', 'report.md'))).toBe(true);
      expect(stdout).toContain(`demo: kept ${root} (remove it with: rm -rf ${root})`);
    } finally {
      if (root) await rm(root, { recursive: true, force: true });
    }
  });

  it('is kept when the run fails, and the output says where to inspect it', async () => {
    const { code, stdout } = await runDemo(['--timeout', '1ms']);
    const root = rootOf(stdout);
    try {
      expect(code).not.toBe(0);
      expect(existsSync(root!)).toBe(true);
      expect(stdout).toContain(`; its store and work directory are kept for you to inspect: ${root}`);
      expect(stdout).toContain(`log --root ${root} --team demo`);
    } finally {
      if (root) await rm(root, { recursive: true, force: true });
    }
  });
});

describe('mailroom run', () => {
  it('npm run demo: three workers finish the six-task DAG, shut down, and exit 0', async () => {
    const { code, stdout } = await runDemo(['--keep']);
    const root = rootOf(stdout);
    try {
      expect(code).toBe(0);
      expect(stdout).toContain(`demo: kept ${root}`);
      expect(stdout).toContain('6/6 tasks completed');
      expect(stdout).toMatch(/Shutdown: alice approved, bob approved, carol approved/);
      expect(stdout).toMatch(/^ +\+\d+\.\d\ds +bob → team-lead: /m); // the lead member's real name
      expect(stdout).not.toContain('→ lead:');
      // A worker with nothing to claim says what it waits for (it said "No ready task left." while tasks were only blocked: new-user trial).
      expect(stdout).not.toContain('No ready task left');
      for (const line of stdout.split('\n').filter((l) => / → team-lead: Nothing/.test(l))) {
        expect(line).toMatch(/: Nothing is ready for me yet: (#\d, )*#\d waits? on (#\d( \((alice|bob|carol)\))?(, )?)+\. I will claim the next task once it is unblocked\.$|: Nothing left for me to claim: /);
      }
      const store = openFsStores(root!);
      const tasks = await store.team.listTasks('demo');
      expect(tasks.map((t) => [t.status, t.metadata?.exitCode])).toEqual(tasks.map(() => ['completed', 0]));
      expect(new Set(tasks.map((t) => t.owner)).size).toBeGreaterThan(1);
      expect((await store.team.readConfig('demo')).members.map((m) => m.name)).toEqual(['team-lead']);
      const report = await readFile(join(root!, 'work', 'out', 'report.md'), 'utf8');
      expect(report).toContain('- 60 rows, 0 bad');
      expect(report).toMatch(/- rows (\d+), regions \1/);
      expect(stdout).toContain(`cat ${join(root!, 'work', 'out', 'report.md')}`);
    } finally {
      if (root) await rm(root, { recursive: true, force: true });
    }
  });

  it('reports a failing task, leaves its dependents open, shuts down and exits 8', async () => {
    const file = join(dir.path, 'team.yaml');
    const tasks = [
      { key: 'ok', subject: 'Write a file', command: 'echo hello > hello.txt' },
      { key: 'bad', subject: 'Fail on purpose', command: 'echo "no such input" >&2; exit 4' },
      { subject: 'Needs the failed one', blockedBy: ['bad'], command: 'true' },
    ];
    await writeFile(file, JSON.stringify({ team: 'fail', members: [{ name: 'solo' }], tasks }));
    const root = join(dir.path, 'root');
    const run = await runCli(['run', file, '--root', root, '--workdir', join(dir.path, 'work'), '--json', '--shutdown-timeout', '20000']);
    expect(run.code).toBe(8);
    expect(JSON.parse(run.stderr).error.code).toBe('RUN_INCOMPLETE');
    const report = JSON.parse(run.stdout);
    expect(report.complete).toBe(false);
    // the final state, as `mailroom task show` has it: the shutdown put the failed task back
    expect(report.tasks.map((t: { status: string; owner?: string; exitCode?: number }) => [t.status, t.owner, t.exitCode])).toEqual([
      ['completed', 'solo', 0],
      ['pending', undefined, 4],
      ['pending', undefined, undefined],
    ]);
    expect(report.tasks[1].beforeShutdown).toEqual({ status: 'in_progress', owner: 'solo' });
    expect(report.tasks[1].lastOutput).toBe('no such input');
    expect(report.members[0]).toMatchObject({ name: 'solo', completed: ['1'], failed: ['2'] });
    expect(report.shutdown).toEqual([{ name: 'solo', outcome: 'approved' }]);
    const store = openFsStores(root);
    expect((await store.team.readTask('fail', '2'))).toMatchObject({ status: 'pending', metadata: { exitCode: 4 } });
    expect((await store.team.readTask('fail', '2'))?.owner).toBeUndefined();
    expect(await readFile(join(dir.path, 'work', 'hello.txt'), 'utf8')).toBe('hello\n');
  });

  it('says in the text report what the shutdown did to a task, and lists only the files this run wrote', async () => {
    const file = join(dir.path, 'team.yaml');
    const work = join(dir.path, 'work');
    const tasks = [
      { key: 'fresh', subject: 'Write fresh', command: 'echo new > fresh.txt', outputs: ['fresh.txt'] },
      { key: 'bad', subject: 'Fail on purpose', command: 'exit 3' },
      { subject: 'Never runs', blockedBy: ['bad'], command: 'echo new > stale.txt', outputs: ['stale.txt', 'missing.txt'] },
    ];
    await writeFile(file, JSON.stringify({ team: 'again', members: [{ name: 'solo' }], tasks }));
    await mkdir(work);
    await writeFile(join(work, 'stale.txt'), 'from an earlier run\n');
    await writeFile(join(work, 'fresh.txt'), 'from an earlier run\n');
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const f of ['stale.txt', 'fresh.txt']) await utimes(join(work, f), hourAgo, hourAgo);
    const run = await runCli(['run', file, '--root', join(dir.path, 'root'), '--workdir', work]);
    expect(run.code).toBe(8);
    expect(run.stdout).toMatch(/#2 +Fail on purpose +- +pending +exit 3 .*in_progress \(solo\) until the shutdown returned it to pending/);
    const files = run.stdout.slice(run.stdout.indexOf('Files to look at'));
    expect(files).toContain(`cat ${join(work, 'fresh.txt')}`);
    expect(files).not.toContain(`cat ${join(work, 'stale.txt')}`);
    expect(files).toContain(`Not written by this run (from before): ${join(work, 'stale.txt')}`);
    expect(files).not.toContain('missing.txt');
    const json = await runCli(['run', file, '--root', join(dir.path, 'root2'), '--workdir', work, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ outputs: [join(work, 'fresh.txt')], olderOutputs: [join(work, 'stale.txt')] });
  });

  it('refuses a team file whose task depends on an unknown key', async () => {
    const file = join(dir.path, 'team.yaml');
    await writeFile(file, 'team: x\nmembers: [{name: a}]\ntasks:\n  - subject: Two\n    blockedBy: [one]\n');
    const run = await runCli(['run', file, '--root', join(dir.path, 'root')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/INVALID_ARGUMENT: Team file .* is invalid: tasks.0 \("Two"\) is blocked by "one", which is not the key of an earlier task/);
  });
});
