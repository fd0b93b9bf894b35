/**
 * Issue 9 item 4: `doctor --fix` on a truncated or partly garbled inbox moved the whole file aside,
 * and the member then showed "(no messages)". Now the complete entries go back into the inbox
 * (under its lock), the repair says how many were kept and how many bytes were set aside, the
 * original stays beside the inbox, and `inbox --all` lists entries of a set-aside copy that are
 * not in the inbox as quarantined. Real CLI processes.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

interface Report {
  findings: Array<{ kind: string; path?: string; repair?: { done: boolean; note: string; kept?: number; setAsideBytes?: number; movedTo?: string } }>;
}

let dir: TempDir;
let inbox: string;
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 't' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice' });
  for (let i = 1; i <= 5; i++) await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: `message ${i}` });
  inbox = `${dir.path}/teams/t/inboxes/alice.json`;
});
afterEach(async () => dir.cleanup());

const texts = async (...args: string[]) =>
  (JSON.parse((await mailroomOk(dir.path, 'inbox', 'alice', '--team', 't', '--json', ...args)).stdout) as { messages: Array<{ entry: { text: string }; quarantined?: true }> }).messages;

async function fix(): Promise<NonNullable<Report['findings'][number]['repair']>> {
  const report = JSON.parse((await mailroom(dir.path, 'doctor', '--fix', '--json')).stdout) as Report;
  const finding = report.findings.find((f) => f.kind === 'corrupt-file' && f.path === inbox);
  expect(finding?.repair?.done).toBe(true);
  return finding!.repair!;
}

describe('doctor --fix on a corrupt inbox', () => {
  it('keeps the complete entries of a truncated inbox and reports the bytes set aside', async () => {
    const original = await readFile(inbox, 'utf8');
    const cut = original.lastIndexOf('"message 5"') + 4; // inside the last entry
    await writeFile(inbox, original.slice(0, cut));
    expect((await mailroom(dir.path, 'inbox', 'alice', '--team', 't')).code).toBe(7);
    const repair = await fix();
    expect(repair.kept).toBe(4);
    const tail = original.slice(original.lastIndexOf('{'), cut);
    expect(repair.setAsideBytes).toBe(Buffer.byteLength(tail));
    expect(repair.note).toMatch(/^kept 4 complete entries in the inbox; \d+ bytes that did not parse set aside \(the original file is kept as alice\.json\.corrupt-/);
    expect((await texts()).map((m) => m.entry.text)).toEqual(['message 1', 'message 2', 'message 3', 'message 4']);
    expect(await readFile(repair.movedTo!, 'utf8')).toBe(original.slice(0, cut));
    const human = await mailroomOk(dir.path, 'doctor', '--fix');
    expect(human.stdout).toContain('No problems found');
  });

  it('keeps the entries on both sides of a garbled stretch', async () => {
    const original = await readFile(inbox, 'utf8');
    const at = original.indexOf('"message 3"');
    await writeFile(inbox, `${original.slice(0, at - 12)}\u0000\u0000garbage{{${original.slice(at + 4)}`);
    const repair = await fix();
    expect(repair.kept).toBe(4);
    expect(repair.setAsideBytes).toBeGreaterThan(0);
    expect((await texts()).map((m) => m.entry.text)).toEqual(['message 1', 'message 2', 'message 4', 'message 5']);
    expect((await texts('--unread')).length).toBe(4);
  });
});

it('inbox --all lists the entries of a corrupt copy set aside whole (as an older mailroom did) as quarantined', async () => {
  await rename(inbox, `${inbox}.corrupt-20260101T000000Z`);
  await writeFile(inbox, '[]');
  await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'after the repair' });
  expect((await texts()).map((m) => m.entry.text)).toEqual(['after the repair']);
  const all = await texts('--all');
  expect(all.map((m) => [m.entry.text, m.quarantined === true])).toEqual([
    ['message 1', true],
    ['message 2', true],
    ['message 3', true],
    ['message 4', true],
    ['message 5', true],
    ['after the repair', false],
  ]);
  const human = await mailroomOk(dir.path, 'inbox', 'alice', '--team', 't', '--all');
  expect(human.stdout).toContain('team-lead (quarantined) (unread): message 1');
});
