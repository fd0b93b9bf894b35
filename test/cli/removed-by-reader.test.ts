/**
 * Claude Code 2.1.332 removes an inbox entry once it delivered it, instead of marking it
 * `read: true` (snapshot 3 → 4: both inboxes end up `[]`). An entry removed by its reader counts
 * as read, never as lost: `inbox --all` lists it (from the journal) as read, `--unread` never does,
 * a `shutdown_request` so removed is still one the teammate received, and no command puts a removed
 * entry back into the file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFERENCE_2_1_332, SESSION_TEAM_2_1_332 as TEAM, copyTree, mailroom, mailroomOk } from '../helpers/store-files.js';
import type { TempDir } from '../helpers/temp-dir.js';
import { teamPaths } from '../helpers/claude-writer.js';
import { openFsStores } from '../../src/store/open.js';

interface View {
  agent: string;
  messages: Array<{ entry: { from: string; text: string; read?: boolean }; removed?: boolean; archived?: boolean }>;
}

/** What the 2.1.332 reader does on delivery: the delivered entries leave the file, which stays. */
async function deliverLikeClaudeCode(path: string, delivered: (e: { text: string }) => boolean): Promise<void> {
  const entries = JSON.parse(await readFile(path, 'utf8')) as Array<{ text: string }>;
  await writeFile(path, JSON.stringify(entries.filter((e) => !delivered(e)), null, 2));
}

describe('entries a Claude Code 2.1.332 reader removed', () => {
  let dir: TempDir;
  let paths: ReturnType<typeof teamPaths>;
  beforeEach(async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, '3-teammate-idle'));
    paths = teamPaths(dir.path, TEAM);
    await mailroomOk(dir.path, 'log'); // records what is on disk into the journal, as watch does
  });
  afterEach(() => dir.cleanup());

  it('are listed by inbox --all as read (removed), and never as unread', async () => {
    await deliverLikeClaudeCode(paths.inbox('team-lead'), () => true);
    const all = JSON.parse((await mailroomOk(dir.path, 'inbox', '--all', '--json')).stdout) as View;
    expect(all.messages).toEqual([expect.objectContaining({ removed: true, entry: expect.objectContaining({ from: 'observer', text: 'HELLO-FROM-OBSERVER: observer is up and has nothing else to do.', read: true }) })]);
    expect((await mailroomOk(dir.path, 'inbox', '--all')).stdout).toBe('1. 2026-12-01T09:06:57.753Z observer [observer says hello]: HELLO-FROM-OBSERVER: observer is up and has nothing else to do.\n');
    const unread = JSON.parse((await mailroomOk(dir.path, 'inbox', '--all', '--unread', '--json')).stdout) as View;
    expect(unread.messages).toEqual([]);
    expect(await readFile(paths.inbox('team-lead'), 'utf8')).toBe('[]');
  });

  it('are not put back by mark-read, a send, or doctor --fix', async () => {
    await mailroomOk(dir.path, 'team', 'send', 'team-lead', 'second note', '--from', 'observer');
    await deliverLikeClaudeCode(paths.inbox('team-lead'), (e) => e.text.startsWith('HELLO'));
    await mailroomOk(dir.path, 'inbox', '--all', '--mark-read');
    await mailroomOk(dir.path, 'team', 'send', 'team-lead', 'third note', '--from', 'observer');
    await mailroomOk(dir.path, 'doctor', '--fix');
    const file = JSON.parse(await readFile(paths.inbox('team-lead'), 'utf8')) as Array<{ text: string; read: boolean }>;
    expect(file.map((e) => [e.text, e.read])).toEqual([
      ['second note', true],
      ['third note', false],
    ]);
    const all = JSON.parse((await mailroomOk(dir.path, 'inbox', '--all', '--json')).stdout) as View;
    expect(all.messages.map((m) => [m.entry.text.slice(0, 12), m.entry.read, m.removed ?? false])).toEqual([
      ['HELLO-FROM-O', true, true],
      ['second note', true, false],
      ['third note', false, false],
    ]);
  });

  it('still count as received: a shutdown_request the reader removed can be answered', async () => {
    const request = JSON.parse((await mailroomOk(dir.path, 'team', 'send', 'observer', '--shutdown-request', '--json')).stdout) as { requestId: string };
    await deliverLikeClaudeCode(paths.inbox('observer'), () => true);
    // An MCP member answers through the same check (shutdown_response refuses ids it never received).
    const { respondToShutdown } = await import('../../src/core/members/shutdown.js');
    const sent = await respondToShutdown({ root: openFsStores(dir.path), team: TEAM, from: 'observer', requestId: request.requestId, approve: true, requireRequest: true });
    expect(JSON.parse(sent.entry.text)).toMatchObject({ type: 'shutdown_approved', requestId: request.requestId });
    const invented = await respondToShutdown({ root: openFsStores(dir.path), team: TEAM, from: 'observer', requestId: 'shutdown-1@observer', approve: true, requireRequest: true }).catch((e: unknown) => e);
    expect(invented).toMatchObject({ code: 'REQUEST_NOT_FOUND' });
  });

  it('an inbox file gone with nobody reading it is no delivery: its unread entries are not shown as read', async () => {
    const { rm } = await import('node:fs/promises');
    await rm(paths.inbox('observer'));
    const { snapshotTeam } = await import('../../src/core/live/tracker.js');
    const snapshot = await snapshotTeam({ root: openFsStores(dir.path), team: TEAM });
    expect(snapshot.messages.map((m) => [m.to, m.status, m.removed ?? false])).toEqual([
      ['observer', 'unread', false],
      ['team-lead', 'unread', false],
    ]);
    expect((await mailroom(dir.path, 'inbox', 'observer', '--all', '--json')).code).toBe(0);
  });
});
