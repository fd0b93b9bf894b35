/**
 * Claude Code 2.1.332 removes a session's `teams/<team>` at exit and leaves `tasks/<team>/` behind.
 * `mailroom doctor` reports such a task list without a team, and `--fix` moves it — every file as
 * it was — to `<root>/mailroom/leftovers/tasks/`, never deleting it. Lists that are not leftovers
 * (a team's, one the client is removing right now, a teamless session's, one in use) are left alone.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdir, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFERENCE_2_1_332, SESSION_TEAM_2_1_332 as TEAM, copyTree, listFiles, mailroom, snapshotBytes } from '../helpers/store-files.js';
import type { TempDir } from '../helpers/temp-dir.js';

interface Report {
  problems: number;
  remaining: number;
  findings: Array<{ kind: string; severity: string; path?: string; message: string; repair?: { done: boolean; movedTo?: string } }>;
}

async function age(path: string, ms: number): Promise<void> {
  const t = new Date(Date.now() - ms);
  for (const f of await listFiles(path)) await utimes(join(path, f), t, t);
  await utimes(path, t, t);
}

describe('doctor on task lists Claude Code 2.1.332 left behind', () => {
  let dir: TempDir;
  let root: string;
  const list = () => join(root, 'tasks', TEAM);
  beforeEach(async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, '4-shutdown-approved'));
    root = dir.path;
  });
  afterEach(() => dir.cleanup());

  it('reports the list of a removed session team, and --fix moves it aside intact', async () => {
    const tombstone = join(root, 'teams', `${TEAM}.deleted-${randomUUID()}`);
    await rename(join(root, 'teams', TEAM), tombstone);
    await age(list(), 600_000);
    // While the client is still removing the team, its list is not a leftover yet.
    expect(JSON.parse((await mailroom(root, 'doctor', '--json')).stdout)).toMatchObject({ problems: 0 });
    await rm(tombstone, { recursive: true });

    const found = await mailroom(root, 'doctor', '--json');
    expect(found.code).toBe(7);
    const report = JSON.parse(found.stdout) as Report;
    expect(report.findings).toEqual([expect.objectContaining({ kind: 'orphan-task-list', severity: 'problem', path: list() })]);
    expect(report.findings[0]!.message).toMatch(/^Task list \S+ \(2 tasks, unchanged for 10 min\) belongs to no team: Claude Code 2\.1\.332 leaves/);

    const before = await snapshotBytes(list());
    const fixed = await mailroom(root, 'doctor', '--fix', '--json');
    expect(fixed.code, fixed.stderr).toBe(0);
    const repair = (JSON.parse(fixed.stdout) as Report).findings[0]!.repair!;
    expect(repair.done).toBe(true);
    expect(repair.movedTo).toMatch(new RegExp(`/mailroom/leftovers/tasks/${TEAM}-\\d{8}T\\d{6}Z$`));
    expect(await snapshotBytes(repair.movedTo!)).toEqual(before);
    expect(await readdir(join(root, 'tasks'))).toEqual([]);
    const again = await mailroom(root, 'doctor', '--json');
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as Report).findings).toEqual([]);
  });

  it('plain output names the list and the fix', async () => {
    await rm(join(root, 'teams', TEAM), { recursive: true });
    await age(list(), 3 * 3_600_000);
    const run = await mailroom(root, 'doctor');
    expect(run.code).toBe(7);
    expect(run.stdout).toContain(`Task list ${list()} (2 tasks, unchanged for 3 h) belongs to no team`);
    expect(run.stdout).toContain('Repair moves it to <root>/mailroom/leftovers/tasks/ (never deletes it)');
  });

  it("leaves alone a team's list, a teamless session's list (a session id), a list changed just now and one whose lock is held", async () => {
    await age(list(), 60_000);
    const session = join(root, 'tasks', '19f15a79-415d-4e01-bab9-708432af6fca');
    await cp(list(), session, { recursive: true });
    await age(session, 60_000);
    const fresh = join(root, 'tasks', 'session-aaaaaaaa');
    await mkdir(fresh);
    await writeFile(join(fresh, '1.json'), JSON.stringify({ id: '1', subject: 's', description: '', status: 'pending', blocks: [], blockedBy: [] }, null, 2));
    const locked = join(root, 'tasks', 'session-bbbbbbbb');
    await cp(list(), locked, { recursive: true });
    await mkdir(join(locked, '.lock.lock'));
    await age(locked, 60_000);
    const now = new Date();
    await utimes(join(locked, '.lock.lock'), now, now);
    const run = await mailroom(root, 'doctor', '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({ problems: 0, findings: [] });
    expect(run.code).toBe(0);
  });
});
