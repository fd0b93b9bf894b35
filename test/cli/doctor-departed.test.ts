/**
 * An inbox kept after its member left, with everything in it read, is what Claude Code 2.1.109
 * leaves after every shutdown (reference snapshot 5-member-removed): `mailroom doctor` reports it
 * as info and exits 0 (it used to call it a problem, "0 unread: never delivered", and exit 7 on a
 * healthy team); an inbox with unread messages for a non-member stays a problem.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TempDir } from '../helpers/temp-dir.js';
import { REFERENCE_2_1_109, copyTree, mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => (dir = await copyTree(join(REFERENCE_2_1_109, '5-member-removed'))));
afterEach(() => dir.cleanup());

describe('doctor on a Claude Code team after a teammate shut down', () => {
  it('reports the read-only history inbox as info, exits 0, and --fix leaves it in place', async () => {
    const run = await mailroom(dir.path, 'doctor', '--json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { findings: { kind: string; severity: string; message: string }[]; problems: number };
    expect(report.problems).toBe(0);
    expect(report.findings).toEqual([expect.objectContaining({ kind: 'orphan-inbox', severity: 'info' })]);
    expect(report.findings[0]!.message).not.toContain('never delivered');
    await mailroomOk(dir.path, 'doctor', '--fix');
    expect(await readdir(join(dir.path, 'teams/compat/inboxes'))).toContain('observer.json');
  });

  it('an unread message to the departed member makes it a problem again', async () => {
    await mailroomOk(dir.path, 'team', 'spawn', 'observer');
    await mailroomOk(dir.path, 'team', 'send', 'observer', 'are you there?');
    await mailroomOk(dir.path, 'team', 'stop', 'observer', '--force');
    // mailroom's stop dead-lettered it (kept, its sender told): nothing is left unread there.
    expect((await mailroomOk(dir.path, 'dead-letter', 'list')).stdout).toContain('are you there?');
    expect((await mailroom(dir.path, 'doctor')).code).toBe(0);
    // Another writer (Claude Code, a script) appends to the departed member's inbox afterwards.
    const inbox = join(dir.path, 'teams/compat/inboxes/observer.json');
    const entries = JSON.parse(await readFile(inbox, 'utf8')) as unknown[];
    entries.push({ from: 'team-lead', text: 'still there?', timestamp: new Date().toISOString(), read: false });
    await writeFile(inbox, JSON.stringify(entries, null, 2));
    const run = await mailroom(dir.path, 'doctor');
    expect(run.code).toBe(7);
    expect(run.stdout).toMatch(/Inbox "observer" .*1 unread: never delivered/);
  });
});
