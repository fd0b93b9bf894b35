import { readFile, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Stores } from '../../../src/store/selection.js';
import { openFsStores } from '../../../src/store/open.js';
import { TeamTracker, snapshotTeam } from '../../../src/core/live/tracker.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { updateTask } from '../../../src/core/tasks/update.js';
import { describeEvent } from '../../../src/core/live/watch-events.js';
import type { StoreHint } from '../../../src/store/team-store.js';
import { REFERENCE_2_1_109, copyTree } from '../../helpers/store-files.js';
import type { TempDir } from '../../helpers/temp-dir.js';
import { appendEntries, idleEntry, patchJson, teamPaths, textEntry, writeJsonAtomic } from '../../helpers/claude-writer.js';

const TEAM = 'compat';
const inbox = (member: string): StoreHint => ({ kind: 'inbox', team: TEAM, member });

async function journalLines(root: string): Promise<Array<Record<string, unknown>>> {
  try {
    return (await readFile(teamPaths(root, TEAM).journal, 'utf8')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

describe('snapshotTeam on Claude Code 2.1.109 files (3-teammate-idle)', () => {
  let dir: TempDir;
  beforeEach(async () => (dir = await copyTree(`${REFERENCE_2_1_109}/3-teammate-idle`)));
  afterEach(() => dir.cleanup());

  it('shows the roster, the board and the messages across inboxes', async () => {
    const s = await snapshotTeam({ root: openFsStores(dir.path), team: TEAM });
    expect(s.lead).toBe('team-lead');
    expect(s.members.map((m) => [m.name, m.state, m.backendType, m.model, m.unread])).toEqual([
      ['team-lead', 'unknown', undefined, 'claude-sonnet-4-6', 1],
      ['observer', 'working', 'in-process', 'claude-opus-4-6', 1],
    ]);
    expect(s.members[1]!.lastActivity).toBe('2026-11-29T13:21:16.963Z');
    expect(s.tasks.map((v) => [v.task.id, v.task.status, v.blocked, v.ready])).toEqual([
      ['1', 'completed', false, false],
      ['2', 'pending', false, true],
    ]);
    expect(s.messages.map((m) => `${m.entry.from}→${m.to} ${m.line}`)).toEqual([
      'observer→observer [task assigned] #1 "Collect fixture data" by observer',
      'observer→team-lead HELLO-FROM-OBSERVER: observer is up and has nothing else to do.',
    ]);
    expect(s.counts).toEqual({ unread: 2, tasks: { pending: 1, in_progress: 0, completed: 1 } });
  });

  it('records nothing when only reading', async () => {
    await snapshotTeam({ root: openFsStores(dir.path), team: TEAM });
    expect(await journalLines(dir.path)).toEqual([]);
  });
});

describe('TeamTracker', () => {
  let dir: TempDir;
  let store: Stores;
  let paths: ReturnType<typeof teamPaths>;
  beforeEach(async () => {
    dir = await copyTree(`${REFERENCE_2_1_109}/3-teammate-idle`);
    store = openFsStores(dir.path);
    paths = teamPaths(dir.path, TEAM);
  });
  afterEach(() => dir.cleanup());

  it('derives idle from an idle notice, working again once a later message is delivered', async () => {
    const t = new TeamTracker(store, TEAM);
    await t.load();
    await appendEntries(paths.inbox('team-lead'), idleEntry('observer', '2026-11-29T13:21:20.000Z'));
    let update = await t.apply([inbox('team-lead')]);
    expect(update.snapshot.members[1]).toMatchObject({ state: 'idle', stateReason: 'idle notice at 2026-11-29T13:21:20.000Z' });
    expect(update.events.map(describeEvent)).toEqual([
      'observer → team-lead: [idle: available]',
      'observer: working → idle (idle notice at 2026-11-29T13:21:20.000Z)',
    ]);
    await appendEntries(paths.inbox('observer'), textEntry('team-lead', 'next: task 2', '2026-11-29T13:21:30.000Z', true));
    update = await t.apply([inbox('observer')]);
    expect(update.snapshot.members[1]!.state).toBe('working');
  });

  it('keeps entries that a 2.1.332 reader deleted from the inbox, as read: removed by its reader, not lost', async () => {
    const t = new TeamTracker(store, TEAM);
    await t.load();
    await writeJsonAtomic(paths.inbox('team-lead'), []);
    const update = await t.apply([inbox('team-lead')]);
    const hello = update.snapshot.messages.find((m) => m.to === 'team-lead');
    expect(hello).toMatchObject({ status: 'read', removed: true });
    expect(update.snapshot.members[0]!.unread).toBe(0);
    // The lead runs outside mailroom here: no heartbeat to judge by (issue 23, one truth for the lead's presence).
    expect(update.snapshot.members[0]!.state).toBe('unknown');
  });

  it('shows a member waiting on an unanswered permission request, until the response arrives', async () => {
    const t = new TeamTracker(store, TEAM);
    await t.load();
    const request = { type: 'permission_request', request_id: 'perm-1-abc', agent_id: 'observer', tool_name: 'Bash', tool_use_id: 'tu1', description: 'run ls', input: {}, permission_suggestions: [] };
    await appendEntries(paths.inbox('team-lead'), { from: 'observer', text: JSON.stringify(request), timestamp: '2026-11-29T13:22:00.000Z', read: false });
    let update = await t.apply([inbox('team-lead')]);
    expect(update.snapshot.members[1]).toMatchObject({ state: 'waiting', stateReason: 'waiting for an answer to permission request perm-1-abc' });
    const response = { type: 'permission_response', request_id: 'perm-1-abc', subtype: 'success', response: {} };
    await appendEntries(paths.inbox('observer'), { from: 'team-lead', text: JSON.stringify(response), timestamp: '2026-11-29T13:22:05.000Z', read: true });
    update = await t.apply([inbox('observer')]);
    expect(update.snapshot.members[1]!.state).toBe('working');
  });

  it('reports a shutdown approval as stopped, and the member removed as having left', async () => {
    const t = new TeamTracker(store, TEAM);
    await t.load();
    const approved = { type: 'shutdown_approved', requestId: 'shutdown-1@observer', from: 'observer', timestamp: '2026-11-29T13:23:00.000Z', paneId: 'in-process', backendType: 'in-process' };
    await appendEntries(paths.inbox('team-lead'), { from: 'observer', text: JSON.stringify(approved), timestamp: '2026-11-29T13:23:00.000Z', read: false });
    let update = await t.apply([inbox('team-lead')]);
    expect(update.snapshot.members[1]!.state).toBe('stopped');
    await patchJson<{ members: Array<{ name: string }> }>(paths.config, (c) => void (c.members = c.members.filter((m) => m.name !== 'observer')));
    update = await t.apply([{ kind: 'config', team: TEAM }]);
    expect(update.snapshot.members.map((m) => [m.name, m.inRoster, m.state])).toEqual([
      ['team-lead', true, 'unknown'],
      ['observer', false, 'left'],
    ]);
    expect(update.events.map(describeEvent)).toContain('observer left the team');
  });

  it('reports task changes with what changed, and the team vanishing', async () => {
    const t = new TeamTracker(store, TEAM);
    await t.load();
    await patchJson<Record<string, unknown>>(paths.task('2'), (task) => void Object.assign(task, { status: 'in_progress', owner: 'observer' }));
    let update = await t.apply([{ kind: 'task', team: TEAM, id: '2' }]);
    expect(update.events.map(describeEvent)).toEqual(['task #2 "Summarise fixture data": status pending → in_progress, owner → observer']);
    expect(update.snapshot.members[1]!.currentTask).toEqual({ id: '2', subject: 'Summarise fixture data', status: 'in_progress' });
    await rm(`${dir.path}/teams/${TEAM}/config.json`);
    update = await t.apply([{ kind: 'config', team: TEAM }]);
    expect(update.snapshot.exists).toBe(false);
    expect(update.events.map(describeEvent)).toEqual(['team removed (config.json is gone)']);
  });

  it('asks for a retry when a file is caught half-written, and picks it up later', async () => {
    const t = new TeamTracker(store, TEAM);
    await t.load();
    const { writeFile } = await import('node:fs/promises');
    const original = await readFile(paths.inbox('team-lead'), 'utf8');
    await writeFile(paths.inbox('team-lead'), original.slice(0, 40));
    const torn = await t.apply([inbox('team-lead')]);
    expect(torn.retry).toBe(true);
    expect(torn.snapshot.members[0]!.unread).toBe(1);
    await writeFile(paths.inbox('team-lead'), original);
    await appendEntries(paths.inbox('team-lead'), textEntry('observer', 'again', '2026-11-29T13:24:00.000Z'));
    const fixed = await t.apply([]);
    expect(fixed.retry).toBe(false);
    expect(fixed.events.map(describeEvent)).toEqual(['observer → team-lead: again']);
  });
});

describe('journal recording', () => {
  let dir: TempDir;
  let store: Stores;
  let paths: ReturnType<typeof teamPaths>;
  beforeEach(async () => {
    dir = await copyTree(`${REFERENCE_2_1_109}/3-teammate-idle`);
    store = openFsStores(dir.path);
    paths = teamPaths(dir.path, TEAM);
  });
  afterEach(() => dir.cleanup());

  it('records what is on disk once: a second watcher adds nothing', async () => {
    await new TeamTracker(store, TEAM, { record: true }).load();
    const first = await journalLines(dir.path);
    expect(first.map((e) => `${e.kind}:${e.source}:${String(e.action ?? e.to)}`)).toEqual([
      'member:observed:joined',
      'member:observed:joined',
      'message:observed:observer',
      'message:observed:team-lead',
      'task:observed:created',
      'task:observed:created',
    ]);
    // A join observed later is stamped with the member's joinedAt (Claude Code 2.1.109 config), not the watch time.
    const joins = first.filter((e) => e.kind === 'member');
    expect(joins.map((e) => e.at)).toEqual([new Date(1795958476595).toISOString(), new Date(1795958476804).toISOString()]);
    await new TeamTracker(store, TEAM, { record: true }).load();
    expect(await journalLines(dir.path)).toHaveLength(first.length);
  });

  it('journals sends and task updates made through mailroom, and a watcher does not repeat them', async () => {
    const t = new TeamTracker(store, TEAM, { record: true });
    await t.load();
    const before = (await journalLines(dir.path)).length;
    await sendMessage({ root: store, team: TEAM, to: 'observer', text: 'please summarise' });
    await updateTask({ root: store, team: TEAM, id: '2', owner: 'observer' });
    const update = await t.apply([inbox('observer'), { kind: 'task', team: TEAM, id: '2' }]);
    expect(update.events.map(describeEvent)).toEqual([
      'team-lead → observer: please summarise',
      'team-lead → observer: [task assigned] #2 "Summarise fixture data" by team-lead',
      'task #2 "Summarise fixture data": owner → observer',
    ]);
    const added = (await journalLines(dir.path)).slice(before);
    expect(added.map((e) => `${e.kind}:${e.source}`)).toEqual(['message:mailroom', 'task:mailroom', 'message:mailroom']);
  });

  it("lists read entries that mailroom moved to the inbox archive, without a journal", async () => {
    await patchJson<Array<Record<string, unknown>>>(paths.inbox('team-lead'), (entries) => void entries.forEach((e) => (e.read = true)));
    expect((await store.team.archiveInbox(TEAM, 'team-lead')).value).toBe(1);
    const s = await snapshotTeam({ root: openFsStores(dir.path), team: TEAM });
    expect(s.messages.map((m) => [m.to, m.entry.text.slice(0, 19), m.status])).toEqual([
      ['observer', '{"type":"task_assig', 'unread'],
      ['team-lead', 'HELLO-FROM-OBSERVER', 'read'],
    ]);
    expect(await journalLines(dir.path)).toEqual([]);
  });

  it('keeps messages that were deleted from inboxes after being journaled', async () => {
    await new TeamTracker(store, TEAM, { record: true }).load();
    await writeJsonAtomic(paths.inbox('team-lead'), []);
    const later = await snapshotTeam({ root: openFsStores(dir.path), team: TEAM });
    expect(later.messages.map((m) => [m.to, m.status, m.removed])).toEqual([
      ['observer', 'unread', undefined],
      ['team-lead', 'read', true],
    ]);
  });
});
