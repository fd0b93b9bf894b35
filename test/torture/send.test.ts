/**
 * Sends under concurrency and SIGKILL, with an unlocked reader process parsing every file every few
 * ms (../shared/cases/01, 02). Case 01 and the kill run use one real CLI process per send; case 02
 * uses four long-lived sender processes, as it states. Pass: 0 lost sends that exited 0 (or were
 * acknowledged), 0 duplicates, 0 torn reads. Larger runs: `node bench/torture.mjs`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { judge, runLibraryTorture, runMailroom, runSendTorture } from '../../bench/lib/torture.mjs';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { makeTeam } from '../helpers/team-setup.js';

const LETTERS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-torture-');
});
afterEach(() => tmp.cleanup());

describe('case 01: eight processes send twenty messages each to one inbox at once', () => {
  it('keeps exactly 160 entries, each (sender, n) once and in n order, and the file parses at every moment', async () => {
    await makeTeam(tmp.path, 't', LETTERS);
    const result = await runSendTorture({ root: tmp.path, team: 't', to: 'team-lead', senders: LETTERS, sends: 20 });
    const verdict = judge(result);
    expect(verdict.failed).toEqual([]);
    expect(verdict.acknowledged).toBe(160);
    expect(result.texts).toHaveLength(160);
    expect(new Set(result.texts)).toEqual(new Set(LETTERS.flatMap((s) => Array.from({ length: 20 }, (_, i) => `${s}-${i + 1}`))));
    expect(verdict.outOfOrder).toEqual([]);
    expect(verdict.tornReads).toBe(0);
    expect(verdict.reads).toBeGreaterThan(0);
  }, 120_000); // 160 CLI processes of ~0.25 CPU-s each: ~26 s measured on a 2-core machine
});

describe('senders SIGKILLed at random moments', () => {
  // A send killed inside its critical section leaves the inbox lock; 2 s stale time keeps this fast.
  it('lose no acknowledged send, duplicate nothing, and never expose a torn file', async () => {
    const senders = LETTERS.slice(0, 4);
    await makeTeam(tmp.path, 't', senders);
    const result = await runSendTorture({ root: tmp.path, team: 't', to: 'team-lead', senders,
      sends: 6,
      kills: 1,
      killProbability: 0.5,
      maxKillDelayMs: 250,
      env: { ...process.env, MAILROOM_LOCK_STALE_MS: '2000' },
    });
    const verdict = judge(result);
    expect(verdict.killed).toBeGreaterThan(0);
    expect(verdict.lost).toEqual([]);
    expect(verdict.duplicated).toEqual([]);
    expect(verdict.outOfOrder).toEqual([]);
    expect(verdict.failed).toEqual([]);
    expect(verdict.tornReads).toBe(0);
    expect(verdict.vanished).toBe(0);
  }, 120_000);
});

describe('case 02: a reader while members are spawned and four processes send 200 messages', () => {
  it('sees 0 parse failures and 0 empty reads of config.json and every inbox', async () => {
    const senders = ['a', 'b', 'c', 'd'];
    await makeTeam(tmp.path, 't', senders);
    const spawnFive = async () => {
      for (const name of ['e1', 'e2', 'e3', 'e4', 'e5']) {
        const run = await runMailroom(['--root', tmp.path, '--team', 't', 'team', 'spawn', name, '--prompt', `Hello ${name}`]);
        expect(run.stderr).toBe('');
      }
    };
    const result = await runLibraryTorture({ root: tmp.path, team: 't', to: 'team-lead', senders, sends: 50, readerIntervalMs: 10, during: spawnFive });
    const verdict = judge(result);
    expect(verdict.failed).toEqual([]);
    expect(result.texts).toHaveLength(200);
    expect(verdict.tornReads).toBe(0);
    expect(verdict.vanished).toBe(0);
    expect(verdict.reads).toBeGreaterThan(0);
  }, 60_000);
});
