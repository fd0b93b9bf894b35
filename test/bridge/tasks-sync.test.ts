/**
 * The task board across two Claude Code roots and one real redis-server (docs/bridge.md "Tasks"):
 * concurrent Claude Code writers on both machines and a mailroom writer in Redis converge to one
 * board with no task lost, duplicated or sharing an id; a bridge killed with SIGKILL while syncing
 * tasks converges once restarted; a local deletion and a local link edit reach the others. Task
 * files are written exactly as Claude Code 2.1.109 writes them (test/helpers/claude-locked.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src/protocol/task.js';
import { BIN } from '../helpers/cli.js';
import { claudeCreateTask, claudeDeleteTask, claudeLink, claudeUpdateTask } from '../helpers/claude-locked.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv } from '../helpers/store-files.js';
import { TEAM, twoMachines, type TwoMachines } from './setup.js';

let t: TwoMachines | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await t?.close();
  t = undefined;
});

const tasksDir = (root: string) => join(root, 'tasks', TEAM);

/** A root's board as Claude Code reads it: every `<id>.json`, by id. */
async function board(root: string): Promise<Task[]> {
  const names = (await readdir(tasksDir(root)).catch(() => [] as string[])).filter((n) => /^\d+\.json$/.test(n));
  // A file the bridge deletes between the listing and the read is not on the board (CI saw ENOENT).
  const read = async (n: string) => readFile(join(tasksDir(root), n), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  const texts = await Promise.all(names.map(read));
  const tasks = texts.filter((t): t is string => t !== undefined).map((t) => JSON.parse(t) as Task);
  return tasks.sort((x, y) => Number(x.id) - Number(y.id));
}

const view = (ts: Task[]) => ts.map((x) => ({ id: x.id, subject: x.subject, status: x.status, owner: x.owner ?? null, blocks: [...x.blocks].sort(), blockedBy: [...x.blockedBy].sort() }));

/** Waits until both roots and Redis hold the same board, `check` holding on it; returns it. */
async function converged(t: TwoMachines, check: (ts: Task[]) => boolean, what: string): Promise<ReturnType<typeof view>> {
  let last = '';
  try {
    return await until(async () => {
      const [a, b, r] = [view(await board(t.a.root)), view(await board(t.b.root)), view(await t.a.remote.team.listTasks(TEAM))];
      last = JSON.stringify({ a, b, r });
      const same = JSON.stringify(a) === JSON.stringify(r) && JSON.stringify(b) === JSON.stringify(r);
      return same && check(await t.a.remote.team.listTasks(TEAM)) ? r : undefined;
    }, 20_000, what);
  } catch (err) {
    throw new Error(`${(err as Error).message}; warnings ${JSON.stringify([...t.a.statuses, ...t.b.statuses].filter((s) => s.kind === 'warning' || s.kind === 'tasks'))}; last seen ${last}`);
  }
}

/** Starts `mailroom bridge` for `root` in a child process; resolves once it printed `started`. */
async function cliBridge(root: string, url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'bridge', '--root', root, '--team', TEAM, '--json'], { env: cleanEnv({ MAILROOM_STORE: url }), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if ((JSON.parse(line) as { kind: string }).kind === 'started') resolve();
    });
    child.once('exit', (code) => reject(new Error(`bridge exited ${code}: ${err}`)));
  });
  return child;
}

function expectOneEach(tasks: ReturnType<typeof view>, subjects: string[]): void {
  expect(new Set(tasks.map((x) => x.id)).size).toBe(tasks.length);
  expect(tasks.map((x) => x.subject).sort()).toEqual([...subjects].sort());
}

describe('bridge task sync', () => {
  it('concurrent creates and status/owner updates on both roots and in Redis converge: none lost, none twice, ids unique', async () => {
    t = await twoMachines({ tasks: true });
    await t.a.start();
    await t.b.start();
    await converged(t, (ts) => ts.length === 2, 'fixture board everywhere');
    const N = 6;
    const subjects = ['Collect fixture data', 'Summarise fixture data'];
    const writers: Array<Promise<unknown>> = [];
    for (const [side, root] of [['a', t.a.root], ['b', t.b.root]] as const) {
      writers.push((async () => {
        for (let i = 0; i < N; i++) await claudeCreateTask(tasksDir(root), { subject: `${side}-${i}`, description: `made on ${side}` });
      })());
      for (let i = 0; i < N; i++) subjects.push(`${side}-${i}`);
    }
    writers.push((async () => {
      for (let i = 0; i < N; i++) await t!.a.remote.team.createTask(TEAM, { subject: `r-${i}`, description: 'made in redis' });
    })());
    for (let i = 0; i < N; i++) subjects.push(`r-${i}`);
    // Status/owner updates meanwhile: A's Claude Code takes #1, B's completes #2.
    writers.push(claudeUpdateTask(tasksDir(t.a.root), '1', (x) => ({ ...x, status: 'in_progress', owner: 'team-lead' })));
    writers.push(claudeUpdateTask(tasksDir(t.b.root), '2', (x) => ({ ...x, owner: 'observer' })));
    await Promise.all(writers);
    const final = await converged(t, (ts) => ts.length === subjects.length, 'one board');
    expectOneEach(final, subjects);
    expect(final.find((x) => x.id === '1')).toMatchObject({ status: 'in_progress', owner: 'team-lead' });
    expect(final.find((x) => x.id === '2')).toMatchObject({ owner: 'observer' });
  }, 60_000);

  it('the CLI bridge killed with SIGKILL during a task sync, restarted: one board, every task once', async () => {
    t = await twoMachines({ tasks: true });
    await t.a.start();
    let b = await cliBridge(t.b.root, t.server.url);
    await converged(t, (ts) => ts.length === 2, 'fixture board everywhere');
    const N = 30;
    const subjects = ['Collect fixture data', 'Summarise fixture data', ...Array.from({ length: N }, (_, i) => `b-${i}`)];
    const writer = (async () => {
      for (let i = 0; i < N; i++) await claudeCreateTask(tasksDir(t!.b.root), { subject: `b-${i}`, description: 'made on b' });
    })();
    await until(async () => ((await t!.a.remote.team.listTasks(TEAM)).length >= 6 ? true : undefined), 20_000, 'B syncing');
    const exited = new Promise((r) => b.once('exit', r));
    b.kill('SIGKILL');
    await exited;
    expect((await t.a.remote.team.listTasks(TEAM)).length).toBeLessThan(subjects.length); // mid-sync
    await writer;
    b = await cliBridge(t.b.root, t.server.url);
    const final = await converged(t, (ts) => ts.length >= subjects.length, 'one board after restart');
    expectOneEach(final, subjects);
    b.kill('SIGKILL');
  }, 60_000);

  it('a task deleted by Claude Code on A is deleted in Redis and on B', async () => {
    t = await twoMachines({ tasks: true });
    await t.a.start();
    await t.b.start();
    await converged(t, (ts) => ts.length === 2, 'fixture board everywhere');
    await claudeDeleteTask(tasksDir(t.a.root), '2');
    const final = await converged(t, (ts) => ts.length === 1, 'deleted everywhere');
    expect(final.map((x) => x.id)).toEqual(['1']);
  });

  it('a link Claude Code adds on B (both files) reaches Redis and A, symmetric', async () => {
    t = await twoMachines({ tasks: true });
    await t.a.start();
    await t.b.start();
    await converged(t, (ts) => ts.length === 2, 'fixture board everywhere');
    await claudeLink(tasksDir(t.b.root), '1', '2');
    const final = await converged(t, (ts) => ts.find((x) => x.id === '2')?.blockedBy.includes('1') === true && ts.find((x) => x.id === '1')?.blocks.includes('2') === true, 'link everywhere');
    expect(final.map((x) => [x.id, x.blocks, x.blockedBy])).toEqual([['1', ['2'], []], ['2', [], ['1']]]);
  });
});
