/**
 * `doctor` finds and repairs (../shared/cases/11): corrupt files are moved aside, never
 * overwritten; temp files are removed only when old or not guarded by a held lock; stale locks and
 * takeover leftovers go; task links, owners and orphan inboxes are made consistent.
 */
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doctor } from '../../../src/core/doctor/doctor.js';
import { addTask } from '../../../src/core/tasks/board.js';
import { acquireLease } from '../../../src/core/leases/path-leases.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { thrownAsync } from '../../helpers/thrown.js';
import { openFsStores } from '../../../src/store/open.js';
import { Layout } from '../../../src/store/fs/paths.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { historyEntries, makeTeam, writeInboxFile } from '../../helpers/team-setup.js';

let tmp: TempDir;
let root: string;
let layout: Layout;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-doctor-');
  root = tmp.path;
  layout = new Layout(root);
  await makeTeam(root, 't', ['alice']);
});
afterEach(() => tmp.cleanup());

const ago = async (path: string, ms: number) => {
  const t = new Date(Date.now() - ms);
  await utimes(path, t, t);
};
const kinds = async () => (await doctor({ root: openFsStores(root) })).findings.map((f) => `${f.kind}:${f.severity}`);
const writeTask = (id: string, fields: Record<string, unknown>) =>
  writeFile(layout.taskPath('t', id), JSON.stringify({ id, subject: `job ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [], ...fields }, null, 2));
const readTask = async (id: string) => JSON.parse(await readFile(layout.taskPath('t', id), 'utf8')) as Record<string, unknown>;

describe('corrupt files', () => {
  it('keeps an unparseable inbox aside byte for byte, leaves the inbox with what parsed (nothing here), and a second run finds nothing', async () => {
    const inbox = await writeInboxFile(root, 't', 'team-lead', []);
    await writeFile(inbox, '[{"from": "alice", "te');
    expect(await kinds()).toEqual(['corrupt-file:problem']);
    const report = await doctor({ root: openFsStores(root), fix: true });
    const movedTo = report.findings[0]!.repair!.movedTo!;
    expect(movedTo).toMatch(/team-lead\.json\.corrupt-\d{8}T\d{6}Z$/);
    expect(await readFile(movedTo, 'utf8')).toBe('[{"from": "alice", "te');
    expect(JSON.parse(await readFile(inbox, 'utf8'))).toEqual([]);
    expect(report.findings[0]!.repair).toMatchObject({ kept: 0, setAsideBytes: Buffer.byteLength('{"from": "alice", "te') });
    expect(report.remaining).toBe(0);
    expect(await kinds()).toEqual([]);
  });

  it('keeps the id of a quarantined task used (.highwatermark raised)', async () => {
    await addTask({ root: openFsStores(root), team: 't', subject: 'one' });
    await writeFile(layout.taskPath('t', '2'), '{"id": "2", "subj');
    await doctor({ root: openFsStores(root), fix: true });
    expect(await readFile(layout.highWatermarkPath('t'), 'utf8')).toBe('2');
    expect((await addTask({ root: openFsStores(root), team: 't', subject: 'three' })).id).toBe('3');
  });

  it('leaves a file that reads fine again by the time of the repair', async () => {
    const store = openFsStores(root);
    const inbox = await writeInboxFile(root, 't', 'team-lead', []);
    await writeFile(inbox, '[');
    const [issue] = await store.team.scanHealth();
    await writeFile(inbox, '[]');
    expect(await store.team.repairHealth(issue!)).toMatchObject({ done: true, note: expect.stringMatching(/reads fine now/) });
    expect(await readFile(inbox, 'utf8')).toBe('[]');
  });
});

describe('temporary files left by killed writers', () => {
  it('removes old ones and unguarded ones, keeps a recent one whose lock is held, and reports bytes freed', async () => {
    const inbox = await writeInboxFile(root, 't', 'team-lead', []);
    await writeFile(`${inbox}.111`, 'x'.repeat(100));
    await ago(`${inbox}.111`, 3_600_000);
    await writeFile(`${layout.taskPath('t', '1')}.222`, 'y'.repeat(50));
    await ago(`${layout.taskPath('t', '1')}.222`, 5_000);
    const alice = await writeInboxFile(root, 't', 'alice', []);
    await writeFile(`${alice}.333`, 'z'.repeat(30));
    await mkdir(`${alice}.lock`);
    await mkdir(`${inbox}.lock`);

    const report = await doctor({ root: openFsStores(root), fix: true });
    const temps = report.findings.filter((f) => f.kind === 'temp-file');
    expect(temps.map((f) => [f.path, f.severity, f.bytes, f.repair?.done ?? false])).toEqual([
      [`${layout.taskPath('t', '1')}.222`, 'problem', 50, true],
      [`${alice}.333`, 'info', 30, false],
      [`${inbox}.111`, 'problem', 100, true],
    ]);
    expect(report.bytesFreed).toBe(150);
    expect(report.remaining).toBe(0);
    expect(await readdir(layout.inboxDir('t'))).toEqual(['alice.json', 'alice.json.333', 'alice.json.lock', 'team-lead.json', 'team-lead.json.lock']);
  });

  it('merges an inbox keep link back before removing it: entries in neither the inbox nor its archive go back after the entry they followed, archived ones do not', async () => {
    // Session 18: a writer killed between its rename and its lock check leaves `<inbox>.keep-<n>`,
    // which may be the only copy of what the rename replaced (test/torture/frozen-writer.test.ts
    // kills a real one); an archiver killed there leaves the head it moved, which must not come back.
    const [h0, h1, a, b, c] = historyEntries(5);
    const inbox = await writeInboxFile(root, 't', 'team-lead', [a, c]);
    await mkdir(layout.inboxArchiveDir('t'), { recursive: true });
    await writeFile(layout.inboxArchivePath('t', 'team-lead'), `${JSON.stringify(h0)}\n${JSON.stringify(h1)}\n`);
    const keep = `${inbox}.keep-12345`;
    await writeFile(keep, JSON.stringify([h0, h1, a, b], null, 2));
    await ago(keep, 5_000);
    const report = await doctor({ root: openFsStores(root), fix: true });
    const found = report.findings.filter((f) => f.kind === 'temp-file');
    expect(found.map((f) => [f.path, f.repair?.done, f.repair?.note])).toEqual([[keep, true, expect.stringMatching(/^merged 1 entry back into .*team-lead\.json/)]]);
    expect((JSON.parse(await readFile(inbox, 'utf8')) as Array<{ msg_id: string }>).map((e) => e.msg_id)).toEqual([a!.msg_id, b!.msg_id, c!.msg_id]);
    expect(await readdir(layout.inboxDir('t'))).not.toContain('team-lead.json.keep-12345');
    // one whose every entry is in the inbox or the archive is just removed
    await writeFile(keep, JSON.stringify([h0, a], null, 2));
    await ago(keep, 5_000);
    const again = await doctor({ root: openFsStores(root), fix: true });
    expect(again.findings.filter((f) => f.kind === 'temp-file').map((f) => f.repair?.note)).toEqual([expect.stringMatching(/^removed \(\d+ bytes; every entry/)]);
    expect((JSON.parse(await readFile(inbox, 'utf8')) as unknown[]).length).toBe(3);
  });

  it('removes a FIFO named like an inbox keep link without reading it (a read would block)', async () => {
    const inbox = await writeInboxFile(root, 't', 'team-lead', []);
    const fifo = `${inbox}.keep-777`;
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [fifo]);
    await ago(fifo, 5_000);
    const report = await doctor({ root: openFsStores(root), fix: true });
    expect(report.findings.filter((f) => f.kind === 'temp-file').map((f) => [f.path, f.repair?.done])).toEqual([[fifo, true]]);
    expect(await readdir(layout.inboxDir('t'))).toEqual(['team-lead.json']);
  });
});

describe('mailroom\'s team files beside config.json', () => {
  // Their FILE_CORRUPT said `doctor --fix` quarantines them, yet doctor found "No problems".
  it('reports an unparseable path-lease file and moves it aside (leases are advisory: re-acquired), after which leasing works', async () => {
    const path = layout.pathLeasesPath('t');
    await writeFile(path, '{"leases": [tru');
    const lease = () => acquireLease({ root: openFsStores(root), team: 't', as: 'alice', paths: ['src'], repo: root, cwd: root });
    await expect(lease()).rejects.toMatchObject({ code: 'FILE_CORRUPT' });
    expect(await kinds()).toEqual(['corrupt-file:problem']);
    const report = await doctor({ root: openFsStores(root), fix: true });
    expect(report.findings[0]).toMatchObject({ path, repair: { done: true } });
    expect(report.findings[0]!.message).toContain('path-lease');
    expect(await readFile(report.findings[0]!.repair!.movedTo!, 'utf8')).toBe('{"leases": [tru');
    expect((await lease()).holder).toBe('alice');
    expect(await kinds()).toEqual([]);
  });

  it('reports an unparseable settings file and leaves it alone: moving it aside would drop the policy and signing', async () => {
    const path = layout.settingsPath('t');
    await writeFile(path, '{"policy": ');
    const err = await thrownAsync(() => sendMessage({ root: openFsStores(root), team: 't', from: 'alice', to: 'team-lead', text: 'hi' }));
    expect(err).toMatchObject({ code: 'FILE_CORRUPT' });
    expect((err as Error).message).not.toContain('quarantines');
    expect((err as Error).message).toMatch(/by hand/);
    expect(await kinds()).toEqual(['corrupt-file:problem']);
    const report = await doctor({ root: openFsStores(root), fix: true });
    expect(report.findings[0]).toMatchObject({ path, repair: { done: false } });
    expect(report.findings[0]!.repair!.note).toMatch(/policy and signing/);
    expect(report.remaining).toBe(1);
    expect(await readFile(path, 'utf8')).toBe('{"policy": ');
  });
});

describe('locks', () => {
  it('removes a stale lock and takeover leftovers, and leaves a live lock alone', async () => {
    const inbox = await writeInboxFile(root, 't', 'team-lead', []);
    await mkdir(`${inbox}.lock`);
    await ago(`${inbox}.lock`, 3_600_000);
    await mkdir(`${inbox}.lock.takeover`);
    await ago(`${inbox}.lock.takeover`, 3_600_000);
    await mkdir(`${inbox}.lock.stale-1-2-abc`);
    await ago(`${inbox}.lock.stale-1-2-abc`, 3_600_000);
    await mkdir(join(layout.teamDir('t'), 'config.json.lock'));
    await new Promise((r) => setTimeout(r, 2100));
    expect(await kinds()).toEqual(['stale-lock:problem', 'lock-leftover:problem', 'lock-leftover:problem']);
    expect((await doctor({ root: openFsStores(root), fix: true })).remaining).toBe(0);
    expect((await readdir(layout.inboxDir('t'))).sort()).toEqual(['team-lead.json']);
    expect((await stat(join(layout.teamDir('t'), 'config.json.lock'))).isDirectory()).toBe(true);
  });
});

describe('team state', () => {
  it('makes dependencies symmetric without changing what is blocked, and drops ids that point nowhere', async () => {
    await writeTask('1', { blockedBy: ['2', '9'] });
    await writeTask('2', {});
    await writeTask('3', { blocks: ['4'] });
    await writeTask('4', {});
    expect(await kinds()).toEqual(['asymmetric-dependency:problem', 'dangling-dependency:problem', 'asymmetric-dependency:problem']);
    expect((await doctor({ root: openFsStores(root), fix: true })).remaining).toBe(0);
    expect(await readTask('1')).toMatchObject({ blockedBy: ['2'] });
    expect(await readTask('2')).toMatchObject({ blocks: ['1'] });
    expect(await readTask('3')).toMatchObject({ blocks: [] });
    expect(await readTask('4')).toMatchObject({ blockedBy: [] });
    expect(await kinds()).toEqual([]);
  });

  it('reports a blockedBy cycle written by hand (none of its tasks can ever start), naming it and the fix; --fix leaves it to a person', async () => {
    // Claude Code writes task files directly and checks no cycle: #1 ⇄ #2 (both sides mirrored),
    // #3 blocked by itself, #4 waits on the cycle without being in it, #5 ⇄ #6 is dead because #6 is completed.
    await writeTask('1', { blockedBy: ['2'], blocks: ['2', '4'] });
    await writeTask('2', { blockedBy: ['1'], blocks: ['1'] });
    await writeTask('3', { blockedBy: ['3'], blocks: ['3'] });
    await writeTask('4', { blockedBy: ['1'] });
    await writeTask('5', { blockedBy: ['6'], blocks: ['6'] });
    await writeTask('6', { blockedBy: ['5'], blocks: ['5'], status: 'completed' });
    const before = await Promise.all(['1', '2', '3', '4', '5', '6'].map(readTask));
    const report = await doctor({ root: openFsStores(root), fix: true });
    const cycles = report.findings.filter((f) => f.kind === 'dependency-cycle');
    expect(cycles.map((f) => [f.severity, f.team])).toEqual([['problem', 't'], ['problem', 't']]);
    expect(cycles[0]!.message).toMatch(/#1 → #2 → #1/);
    expect(cycles[0]!.message).toMatch(/task update 1 --remove-blocked-by 2/);
    expect(cycles[1]!.message).toMatch(/#3 → #3/);
    expect(report.remaining).toBe(2);
    expect(await Promise.all(['1', '2', '3', '4', '5', '6'].map(readTask))).toEqual(before);
  });

  it('unassigns open tasks of departed owners (completed ones stay as history)', async () => {
    await writeTask('1', { owner: 'ghost', status: 'in_progress' });
    await writeTask('2', { owner: 'ghost', status: 'completed' });
    await writeTask('3', { owner: 'alice', status: 'in_progress' });
    expect(await kinds()).toEqual(['orphan-owner:problem']);
    await doctor({ root: openFsStores(root), fix: true });
    expect(await readTask('1')).not.toHaveProperty('owner');
    expect(await readTask('1')).toMatchObject({ status: 'pending' });
    expect(await readTask('2')).toMatchObject({ owner: 'ghost', status: 'completed' });
    expect(await readTask('3')).toMatchObject({ owner: 'alice', status: 'in_progress' });
  });

  it('reports inboxes of non-members with what never got delivered, and moves them aside', async () => {
    await writeInboxFile(root, 't', 'stranger', historyEntries(3, { read: false }));
    await writeInboxFile(root, 't', 'alice', []);
    const report = await doctor({ root: openFsStores(root) });
    expect(report.findings.map((f) => f.message)).toEqual(['Inbox "stranger" belongs to no member of team "t" (3 messages, 3 unread: never delivered).']);
    await doctor({ root: openFsStores(root), fix: true });
    const names = await readdir(layout.inboxDir('t'));
    expect(names.filter((n) => n.startsWith('stranger'))).toEqual([expect.stringMatching(/^stranger\.json\.orphaned-\d{8}T\d{6}Z$/)]);
    expect(names).toContain('alice.json');
    expect(await kinds()).toEqual([]);
  });
});
