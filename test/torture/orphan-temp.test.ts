/**
 * ../shared/cases/11: a 5 MB inbox; a sender SIGKILLed at random moments during 50 sends (a
 * long-lived sender process, restarted after each kill, so kills land inside sends; first one
 * writer is killed at the worst moment, its 5 MB temporary file written, right before its rename).
 * The inbox always parses and holds every acknowledged message; the sender that takes a killed
 * writer's stale lock over deletes its temporary files (cancelling its write); a writer killed with
 * nobody writing after it leaves its file, which `mailroom doctor` reports exactly and, with --fix,
 * removes, saying how many bytes it freed.
 * A kill inside the critical section leaves the inbox lock: 2 s stale time keeps this fast.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { judge, runLibraryTorture } from '../../bench/lib/torture.mjs';
import { Layout } from '../../src/store/fs/paths.js';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';
import { startChild } from '../helpers/child.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { historyEntries, makeTeam, writeInboxFile } from '../helpers/team-setup.js';

const ENV = cleanEnv({ MAILROOM_LOCK_STALE_MS: '2000' });
const CHILD = fileURLToPath(new URL('../helpers/lock-child.mjs', import.meta.url));

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-case11-');
});
afterEach(() => tmp.cleanup());

interface Report {
  findings: Array<{ kind: string; path?: string; bytes?: number; repair?: { done: boolean; bytesFreed: number } }>;
  bytesFreed: number;
  remaining: number;
}

async function tempFiles(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of await readdir(dir)) if (/\.json\.\d+$/.test(name)) out.set(join(dir, name), (await stat(join(dir, name))).size);
  return out;
}

/** Starts a writer that stalls right before its rename with its temporary file written, and SIGKILLs it. @returns that temporary file */
async function stall(inbox: string): Promise<string> {
  const dir = join(inbox, '..');
  const before = await tempFiles(dir);
  const worst = startChild(CHILD, ['stall', inbox, '2000']);
  await worst.waitForLine('renaming');
  worst.proc.kill('SIGKILL');
  await worst.exited;
  const made = [...(await tempFiles(dir)).keys()].filter((p) => !before.has(p));
  expect(made).toHaveLength(1);
  return made[0]!;
}

describe('case 11: killed writers leave temporary files', () => {
  it('never tear the 5 MB inbox, lose nothing acknowledged, and doctor removes exactly the leftovers', async () => {
    await makeTeam(tmp.path, 't', ['a']);
    const inbox = await writeInboxFile(tmp.path, 't', 'team-lead', historyEntries(5000, { read: false, pad: 950, from: 'a' }));
    expect((await stat(inbox)).size).toBeGreaterThan(5_000_000);
    const first = await stall(inbox);

    const result = await runLibraryTorture({
      root: tmp.path, team: 't', to: 'team-lead', senders: ['a'], sends: 50,
      kills: 3, killProbability: 0.9, maxKillDelayMs: 400, readerIntervalMs: 20, env: ENV,
    });
    const verdict = judge(result);
    expect(verdict.killed).toBeGreaterThan(0);
    expect(verdict.lost).toEqual([]);
    expect(verdict.duplicated).toEqual([]);
    expect(verdict.failed).toEqual([]);
    expect(verdict.tornReads).toBe(0);
    // Each takeover of a killed sender's lock deletes its temporary files: the first stalled
    // writer's 5 MB one is gone.
    expect([...(await tempFiles(new Layout(tmp.path).inboxDir('t'))).keys()]).not.toContain(first);

    // A writer killed at the worst moment with nobody writing after it leaves its temporary file
    // (and its lock) for doctor.
    await stall(inbox);
    await new Promise((r) => setTimeout(r, 2500));
    const left = await tempFiles(new Layout(tmp.path).inboxDir('t'));
    expect([...left.values()].some((bytes) => bytes > 5_000_000)).toBe(true);
    const check = await runCli(['--root', tmp.path, 'doctor', '--json'], ENV);
    const found = (JSON.parse(check.stdout) as Report).findings.filter((f) => f.kind === 'temp-file');
    expect(new Map(found.map((f) => [f.path, f.bytes]))).toEqual(left);
    expect(check.code).toBe(left.size > 0 ? 7 : 0);

    const fix = await runCli(['--root', tmp.path, 'doctor', '--fix', '--json'], ENV);
    const fixed = JSON.parse(fix.stdout) as Report;
    expect(fix.code).toBe(0);
    expect(fixed.remaining).toBe(0);
    expect(fixed.bytesFreed).toBe([...left.values()].reduce((a, b) => a + b, 0));
    expect(await tempFiles(new Layout(tmp.path).inboxDir('t'))).toEqual(new Map());
  }, 180_000);
});
