/**
 * `mailroom doctor` through the binary: a human report, exit 7 (STORE_UNHEALTHY) while problems
 * remain, `--fix` repairs and says how many bytes it freed, then exit 0. A file moved aside is
 * named with its new path, and no "0 bytes freed" is printed beside it (new-user trial, session 18).
 */
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Layout } from '../../src/store/fs/paths.js';
import { mailroom } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { makeTeam, writeInboxFile } from '../helpers/team-setup.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-doctor-cli-');
});
afterEach(() => tmp.cleanup());

describe('mailroom doctor', () => {
  it('reports, exits 7, repairs with --fix and reports the bytes freed', async () => {
    await makeTeam(tmp.path, 't', ['alice']);
    const inbox = await writeInboxFile(tmp.path, 't', 'team-lead', []);
    await writeFile(`${inbox}.4242`, '[{"from":"alice"');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(`${inbox}.4242`, hourAgo, hourAgo);
    await mkdir(`${new Layout(tmp.path).configPath('t')}.lock`);
    await utimes(`${new Layout(tmp.path).configPath('t')}.lock`, hourAgo, hourAgo);

    const check = await mailroom(tmp.path, 'doctor');
    expect(check.code).toBe(7);
    expect(check.stdout).toMatch(/^\[stale-lock\] Lock .*config\.json\.lock has not been refreshed for 60 min/m);
    expect(check.stdout).toMatch(/^\[temp-file\] Temporary file .*team-lead\.json\.4242 \(16 bytes, 60 min old\)/m);
    expect(check.stdout).toMatch(/^2 problems found, 0 repaired$/m);
    expect(check.stderr).toMatch(/STORE_UNHEALTHY: 2 problems remain .* Run `mailroom --root \S+ doctor --fix`/);

    const fix = await mailroom(tmp.path, 'doctor', '--fix');
    expect(fix.code).toBe(0);
    expect(fix.stdout).toMatch(/→ fixed: removed \(16 bytes\)/);
    expect(fix.stdout).toMatch(/^2 problems found, 2 repaired; 16 bytes freed$/m);
    expect((await mailroom(tmp.path, 'doctor')).stdout).toMatch(/^No problems found in /);
  });

  it('--fix that moves a corrupt inbox aside says where it went, and no bytes freed when none were', async () => {
    await makeTeam(tmp.path, 't', ['alice']);
    const inbox = await writeInboxFile(tmp.path, 't', 'alice', []);
    await writeFile(inbox, '{broken');
    const fix = await mailroom(tmp.path, 'doctor', '--fix');
    expect(fix.code, fix.stderr).toBe(0);
    const aside = (await readdir(dirname(inbox))).filter((f) => f.startsWith('alice.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(fix.stdout).not.toContain('bytes freed');
    expect(fix.stdout).not.toContain('0 bytes');
    expect(fix.stdout.trimEnd().split('\n').slice(-2)).toEqual(['1 problem found, 1 repaired', `moved aside to ${join(dirname(inbox), aside[0]!)}`]);
  });
});
