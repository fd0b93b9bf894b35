/**
 * Issue 9 item 2: a writer frozen between its lock check and its rename (stopped with SIGSTOP at
 * exactly that point by the store's test hook, $MAILROOM_TEST_FREEZE) for longer than the stale
 * time, while a second writer takes its lock over and writes, must not overwrite the second
 * writer's data when it resumes, and reports success only when its own write is in the file.
 * Each round prints its figures (acknowledged, present, lost, duplicated). Both kinds of taker:
 * mailroom CLI processes (which cancel the frozen writer's pending rename) and the real
 * proper-lockfile package as Claude Code locks (which cancels nothing: the resumed writer's rename
 * lands, and it must merge back what it replaced). Stale time 2 s.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FROZEN_STALE_MS, frozenFigures, runFrozenWriter, type FreezePoint, type FrozenKind } from '../../bench/lib/frozen-writer.mjs';
import { runMailroom } from '../../bench/lib/torture.mjs';
import { Layout } from '../../src/store/fs/paths.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { makeTeam } from '../helpers/team-setup.js';
import { untilStopped } from '../helpers/processes.js';
import { runCli } from '../helpers/cli.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-frozen-');
  await makeTeam(tmp.path, 't', ['a', 'b']);
  expect((await runMailroom(['--root', tmp.path, '--team', 't', 'task', 'add', 'First task'])).code).toBe(0);
});
afterEach(() => tmp.cleanup());

const ROUNDS: Array<{ kind: FrozenKind; points: FreezePoint[]; taker: 'mailroom' | 'claude' }> = [
  { kind: 'inbox', points: ['before-link'], taker: 'mailroom' },
  { kind: 'inbox', points: ['before-rename'], taker: 'mailroom' },
  { kind: 'inbox', points: ['after-rename'], taker: 'mailroom' },
  { kind: 'inbox', points: ['before-link'], taker: 'claude' },
  { kind: 'inbox', points: ['before-link', 'after-rename'], taker: 'claude' },
  { kind: 'task', points: ['before-link'], taker: 'mailroom' },
  { kind: 'task', points: ['before-link', 'after-rename'], taker: 'claude' },
  { kind: 'config', points: ['before-link'], taker: 'mailroom' },
  { kind: 'config', points: ['before-link', 'after-rename'], taker: 'claude' },
];

describe('a writer frozen in its write step past the stale time, then resumed', () => {
  it.each(ROUNDS)('$kind, frozen $points, lock taken over by $taker: loses no acknowledged write and reports the truth', async (round) => {
    const result = await runFrozenWriter({ root: tmp.path, ...round, takerWrites: 4 });
    console.log(frozenFigures(result));
    expect(result.lost, result.frozen.stderr + result.takerStderr).toEqual([]);
    expect(result.duplicated).toEqual([]);
    expect(result.unjournalled).toEqual([]);
    expect(result.journalledTwice).toEqual([]);
    // the resumed writer's own change is in the file (it reports success only then)
    expect(result.frozen.code, result.frozen.stderr).toBe(0);
    expect(result.acknowledged).toBe(5);
    if (round.taker === 'mailroom' && round.points[0] !== 'after-rename') {
      expect(result.takerStderr).toMatch(/took over a stale lock .*cancelled its unfinished write \(1 temporary file\)/);
      expect(result.frozen.stderr).toMatch(/Retrying under a new lock/);
    }
    if (round.taker === 'claude' || round.points[0] === 'after-rename') {
      expect(result.frozen.stderr).toMatch(/was written after this process lost its lock/);
    }
    const layout = new Layout(tmp.path);
    const leftovers = await runMailroom(['--root', tmp.path, 'doctor', '--json'], { env: { ...process.env, MAILROOM_LOCK_STALE_MS: String(FROZEN_STALE_MS) } });
    expect(leftovers.code, `doctor found leftovers in ${layout.root}`).toBe(0);
  }, 60_000);

  it('a claim frozen before its rename loses to the claim made meanwhile, and says so', async () => {
    const env = { ...process.env, MAILROOM_LOCK_STALE_MS: String(FROZEN_STALE_MS) };
    const { spawn } = await import('node:child_process');
    const bin = new URL('../../bin/mailroom.js', import.meta.url).pathname;
    const frozen = spawn(process.execPath, [bin, '--root', tmp.path, '--team', 't', 'task', 'claim', '1', '--as', 'a'], {
      env: { ...env, MAILROOM_TEST_FREEZE: 'before-link:/tasks/t/1.json' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    frozen.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number>((r) => frozen.on('close', (c) => r(c ?? -1)));
    while (!stderr.includes('mailroom-test: frozen')) await new Promise((r) => setTimeout(r, 5));
    await untilStopped(frozen.pid!); // the line comes before the stop: a SIGCONT in between would be lost
    const other = await runMailroom(['--root', tmp.path, '--team', 't', 'task', 'claim', '1', '--as', 'b'], { env });
    expect(other.code, other.stderr).toBe(0);
    frozen.kill('SIGCONT');
    expect(await exited, stderr).toBe(5);
    expect(stderr).toMatch(/already claimed by b/);
    const task = JSON.parse(await readFile(new Layout(tmp.path).taskPath('t', '1'), 'utf8')) as { owner?: string };
    expect(task.owner).toBe('b');
  }, 60_000);

  it('a writer SIGKILLed right after its rename over a Claude Code write leaves a .keep-* holding the only copy: doctor --fix merges it back, losing nothing', async () => {
    // Break test, session 18: the frozen writer's rename replaced the version proper-lockfile's
    // holder wrote (b-1..b-3); killed before it could merge from its keep link, that link was the
    // only copy of three acknowledged messages, and `doctor --fix` deleted it as a leftover.
    const result = await runFrozenWriter({ root: tmp.path, kind: 'inbox', points: ['before-link', 'after-rename'], taker: 'claude', takerWrites: 6, kill: true });
    console.log(frozenFigures(result));
    expect(result.frozen.code).not.toBe(0);
    const inbox = new Layout(tmp.path).inboxPath('t', 'team-lead');
    const keeps = (await readdir(dirname(inbox))).filter((n) => n.startsWith('team-lead.json.keep-'));
    expect(keeps, 'the killed writer left its keep link').toHaveLength(1);
    expect(result.lost.length, 'the keep link holds what the rename replaced').toBeGreaterThan(0);
    const env = { ...process.env, MAILROOM_LOCK_STALE_MS: String(FROZEN_STALE_MS) };
    await new Promise((r) => setTimeout(r, 2 * FROZEN_STALE_MS + 100)); // the killed writer's lock stale, its keep old enough
    const fix = await runCli(['--root', tmp.path, 'doctor', '--fix'], env);
    expect(fix.stdout + fix.stderr).toMatch(/merged 3 entries back/);
    const texts = (JSON.parse(await readFile(inbox, 'utf8')) as Array<{ text: string }>).map((e) => e.text);
    for (let i = 1; i <= 6; i++) expect(texts.filter((t) => t === `b-${i}`), `b-${i}`).toHaveLength(1);
    expect((await readdir(dirname(inbox))).filter((n) => n.includes('.keep-'))).toEqual([]);
    const again = await runCli(['--root', tmp.path, 'doctor', '--json'], env);
    expect(again.code, again.stdout).toBe(0);
  }, 60_000);

  it('a fenced task write frozen before its rename while Claude Code gives the task to another owner: refused (TASK_FENCED) when resumed, not merged in', async () => {
    // Break test, session 18: the resumed write's rename landed over Claude Code's version (owner
    // b, written under the taken-over lock); the three-way merge kept both changes — b's owner and
    // a's `completed` — without checking the fence again, so the owner that lost the task
    // completed it.
    const env = { ...process.env, MAILROOM_LOCK_STALE_MS: String(FROZEN_STALE_MS) };
    expect((await runMailroom(['--root', tmp.path, '--team', 't', 'task', 'claim', '1', '--as', 'a'], { env })).code).toBe(0);
    const taskPath = new Layout(tmp.path).taskPath('t', '1');
    const token = (JSON.parse(await readFile(taskPath, 'utf8')) as { fencingToken?: number }).fencingToken;
    expect(token).toBeGreaterThan(0);
    const { spawn } = await import('node:child_process');
    const dist = new URL('../../dist/index.js', import.meta.url).href;
    const script = `const { openStores } = await import(${JSON.stringify(dist)});
      const { team } = await openStores({ kind: 'fs', root: ${JSON.stringify(tmp.path)} });
      try { await team.patchTask('t', '1', { status: 'completed', fencingToken: ${token} }, { actor: 'a' }); console.log('ok'); }
      catch (err) { console.log(err.code ?? String(err)); }
      await team.close();`;
    const frozen = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...env, MAILROOM_TEST_FREEZE: 'before-link:/tasks/t/1.json' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    frozen.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    frozen.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number>((r) => frozen.on('close', (c) => r(c ?? -1)));
    while (!stderr.includes('mailroom-test: frozen')) {
      if (frozen.exitCode !== null) throw new Error(stderr);
      await new Promise((r) => setTimeout(r, 5));
    }
    await untilStopped(frozen.pid!);
    // Claude Code's TaskUpdate (lead reassigns #1 to b): proper-lockfile takes the stale lock, temp file + rename.
    const { createRequire } = await import('node:module');
    const lockfile = createRequire(import.meta.url)('proper-lockfile') as { lock(file: string, o: Record<string, unknown>): Promise<() => Promise<void>> };
    const release = await lockfile.lock(taskPath, { stale: FROZEN_STALE_MS, realpath: false, lockfilePath: `${taskPath}.lock`, retries: { retries: 400, minTimeout: 5, maxTimeout: 100 } });
    const { writeFile, rename } = await import('node:fs/promises');
    const task = JSON.parse(await readFile(taskPath, 'utf8')) as Record<string, unknown>;
    await writeFile(`${taskPath}.tmp`, JSON.stringify({ ...task, owner: 'b' }, null, 2));
    await rename(`${taskPath}.tmp`, taskPath);
    await release();
    frozen.kill('SIGCONT');
    expect(await exited, stderr).toBe(0);
    expect(stdout.trim(), stderr).toBe('TASK_FENCED');
    expect(JSON.parse(await readFile(taskPath, 'utf8'))).toMatchObject({ owner: 'b', status: 'in_progress' });
  }, 60_000);

  it('a writer paused right after its rename while doctor --fix merges and removes its keep link: resumed, it reports its send, which is in the inbox once', async () => {
    // Break test, session 18: doctor judged the paused writer's keep a leftover (its lock stale) and
    // removed it; the resumed writer, finding its lock lost, read the keep to merge and failed on
    // ENOENT, reporting an error for a message it had delivered (a retry would send it twice).
    const env = { ...process.env, MAILROOM_LOCK_STALE_MS: String(FROZEN_STALE_MS) };
    const { spawn } = await import('node:child_process');
    const bin = new URL('../../bin/mailroom.js', import.meta.url).pathname;
    const inbox = new Layout(tmp.path).inboxPath('t', 'team-lead');
    const frozen = spawn(process.execPath, [bin, '--root', tmp.path, '--team', 't', 'team', 'send', 'team-lead', 'paused-1', '--from', 'a'], {
      env: { ...env, MAILROOM_TEST_FREEZE: `after-rename:${inbox.slice(tmp.path.length)}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    frozen.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number>((r) => frozen.on('close', (c) => r(c ?? -1)));
    while (!stderr.includes('mailroom-test: frozen')) {
      if (frozen.exitCode !== null) throw new Error(stderr);
      await new Promise((r) => setTimeout(r, 5));
    }
    await untilStopped(frozen.pid!);
    expect((await readdir(dirname(inbox))).filter((n) => n.includes('.keep-'))).toHaveLength(1);
    await new Promise((r) => setTimeout(r, FROZEN_STALE_MS + 2_200));
    const fix = await runCli(['--root', tmp.path, 'doctor', '--fix'], env);
    expect(fix.stdout, fix.stderr).toMatch(/keep-\d+.*fixed: removed/s);
    frozen.kill('SIGCONT');
    expect(await exited, stderr).toBe(0);
    const texts = (JSON.parse(await readFile(inbox, 'utf8')) as Array<{ text: string }>).map((e) => e.text);
    expect(texts.filter((t) => t === 'paused-1')).toHaveLength(1);
  }, 60_000);
});
