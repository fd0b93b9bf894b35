/**
 * Files mailroom rewrites keep every field it did not change, in the same key order (also fields
 * mailroom does not know), and what mailroom writes looks like what Claude Code 2.1.109 writes:
 * the same change on a reference snapshot gives the next snapshot's bytes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TempDir } from '../helpers/temp-dir.js';
import { FIXTURES, REFERENCE_2_1_109, copyTree, keyPaths, mailroomOk, readJson, withoutFencingToken } from '../helpers/store-files.js';

type Json = Record<string, unknown>;

/** Inserts `key: value` into `obj` right after `after`, keeping every other key's position. */
function insertAfter(obj: Json, after: string, key: string, value: unknown): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) {
    out[k] = v;
    if (k === after) out[key] = value;
  }
  return out;
}

async function rewriteJson(path: string, change: (value: never) => unknown): Promise<void> {
  await writeFile(path, JSON.stringify(change((await readJson(path)) as never), null, 2));
}

const FUTURE = { added: 'by a future Claude Code', n: [1, 2] };

/** A 2.1.109 entry's keys as 2.1.332 orders them with its additions: `msgV, msg_id, type` before `read`. */
function as2_1_332(keys: string[]): string[] {
  return [...keys.filter((k) => k !== 'read'), 'msgV', 'msg_id', 'type', 'read'];
}

describe('rewrites of fixtures/claude-code keep what they do not change', () => {
  let dir: TempDir;
  let root: string;
  const file = (p: string) => join(root, p);

  beforeEach(async () => {
    dir = await copyTree(join(FIXTURES, 'claude-code'));
    root = dir.path;
  });
  afterEach(() => dir.cleanup());

  it('send appends one entry in Claude Code key order and leaves the others as they were', async () => {
    await rewriteJson(file('teams/demo/inboxes/alice.json'), (entries: Json[]) => entries.map((e, i) => (i === 0 ? insertAfter(e, 'timestamp', 'x-future', FUTURE) : e)));
    const before = await readJson<Json[]>(file('teams/demo/inboxes/alice.json'));
    const configBefore = await readFile(file('teams/demo/config.json'));
    await mailroomOk(root, 'team', 'send', 'alice', 'Please also handle comments', '--summary', 'Handle comments');
    const after = await readJson<Json[]>(file('teams/demo/inboxes/alice.json'));
    expect(after.slice(0, before.length)).toEqual(before);
    expect(keyPaths(after.slice(0, before.length))).toEqual(keyPaths(before));
    const added = after[before.length]!;
    expect(Object.keys(added)).toEqual(['from', 'text', 'summary', 'timestamp', 'msgV', 'msg_id', 'type', 'read']);
    expect(added).toMatchObject({ from: 'team-lead', text: 'Please also handle comments', summary: 'Handle comments', read: false, type: 'message', msgV: 1 });
    expect(added.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(added.msg_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await readFile(file('teams/demo/config.json'))).toEqual(configBefore);
  });

  it("a teammate's message carries its color", async () => {
    await mailroomOk(root, 'team', 'send', 'team-lead', 'Parser done', '--from', 'bob');
    const after = await readJson<Json[]>(file('teams/demo/inboxes/team-lead.json'));
    expect(after).toHaveLength(7);
    expect(Object.keys(after[6]!)).toEqual(['from', 'text', 'timestamp', 'color', 'msgV', 'msg_id', 'type', 'read']);
    expect(after[6]).toMatchObject({ from: 'bob', color: 'green' });
  });

  it('task update changes only the named fields, keeping unknown keys where they were', async () => {
    await rewriteJson(file('tasks/demo/3.json'), (t: Json) => insertAfter(t, 'status', 'x-future', FUTURE));
    const before = await readJson<Json>(file('tasks/demo/3.json'));
    await mailroomOk(root, 'task', 'update', '3', '--description', 'Cover empty input only.');
    const after = await readJson<Json>(file('tasks/demo/3.json'));
    expect(after).toEqual({ ...before, description: 'Cover empty input only.' });
    expect(keyPaths(after)).toEqual(keyPaths(before));
  });

  it('metadata merges per key', async () => {
    const before = await readJson<Json>(file('tasks/demo/5.json'));
    await mailroomOk(root, 'task', 'update', '5', '--metadata', 'estimate=3', '--metadata', 'reviewer=alice');
    const after = await readJson<Json>(file('tasks/demo/5.json'));
    expect(after).toEqual({ ...before, metadata: { priority: 'low', estimate: 3, reviewer: 'alice' } });
    expect(Object.keys(after.metadata as Json)).toEqual(['priority', 'estimate', 'reviewer']);
  });

  it('a claim adds owner where Claude Code puts it and keeps the rest', async () => {
    await mailroomOk(root, 'task', 'claim', '5', '--as', 'alice');
    const after = await readJson<Json>(file('tasks/demo/5.json'));
    // fencingToken (the claim's fencing token) goes last: Claude Code keeps keys it does not know.
    expect(Object.keys(after)).toEqual(['id', 'subject', 'description', 'owner', 'status', 'blocks', 'blockedBy', 'metadata', 'fencingToken']);
    expect(after).toMatchObject({ owner: 'alice', status: 'in_progress', metadata: { priority: 'low', estimate: 2 } });
  });

  it('spawn appends a member in Claude Code key order and keeps the config, unknown keys included', async () => {
    await rewriteJson(file('teams/demo/config.json'), (c: Json) => {
      const members = (c.members as Json[]).map((m) => (m.name === 'alice' ? insertAfter(m, 'cwd', 'x-future', FUTURE) : m));
      return insertAfter({ ...c, members }, 'leadSessionId', 'x-future', FUTURE);
    });
    const before = await readJson<Json & { members: Json[] }>(file('teams/demo/config.json'));
    await mailroomOk(root, 'team', 'spawn', 'carol', '--prompt', 'You are carol. Review the parser.', '--model', 'claude-sonnet-4-6', '--cwd', root);
    const after = await readJson<Json & { members: Json[] }>(file('teams/demo/config.json'));
    expect({ ...after, members: after.members.slice(0, 3) }).toEqual(before);
    expect(keyPaths({ ...after, members: after.members.slice(0, 3) })).toEqual(keyPaths(before));
    const carol = after.members[3]!;
    // isActive false: nothing runs carol yet (Claude Code's TeamDelete counts a member without it as active).
    expect(Object.keys(carol)).toEqual([...Object.keys(before.members[1]!).filter((k) => k !== 'isActive' && k !== 'x-future' && k !== 'backendType'), 'isActive']);
    expect(carol.isActive).toBe(false);
    expect(carol).toMatchObject({ agentId: 'carol@demo', name: 'carol', color: 'yellow', tmuxPaneId: '', subscriptions: [] });
    const inbox = await readJson<Json[]>(file('teams/demo/inboxes/carol.json'));
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ from: 'team-lead', text: 'You are carol. Review the parser.', read: false });
  });

  it('inbox --mark-read flips read flags and nothing else', async () => {
    const before = await readJson<Json[]>(file('teams/demo/inboxes/team-lead.json'));
    await mailroomOk(root, 'inbox', '--unread', '--mark-read');
    const after = await readJson<Json[]>(file('teams/demo/inboxes/team-lead.json'));
    expect(after).toEqual(before.map((e) => ({ ...e, read: true })));
    expect(keyPaths(after)).toEqual(keyPaths(before));
  });
});

describe('the same change on a Claude Code 2.1.109 snapshot gives what Claude Code wrote', () => {
  const dirs: TempDir[] = [];
  async function snapshot(name: string): Promise<string> {
    const dir = await copyTree(join(REFERENCE_2_1_109, name));
    dirs.push(dir);
    return dir.path;
  }
  const ref = (name: string, p: string) => join(REFERENCE_2_1_109, name, p);
  afterEach(async () => {
    for (const d of dirs.splice(0)) await d.cleanup();
  });

  it('1 → 2: making task 2 blocked by task 1 writes both files byte for byte', async () => {
    const root = await snapshot('1-tasks-with-dependency');
    await mailroomOk(root, 'task', 'update', '2', '--add-blocked-by', '1');
    for (const f of ['tasks/compat/1.json', 'tasks/compat/2.json']) {
      expect(await readFile(join(root, f), 'utf8')).toBe(await readFile(ref('2-teammate-spawned', f), 'utf8'));
    }
  });

  it('2 → 3: observer claims and completes task 1, byte for byte', async () => {
    const root = await snapshot('2-teammate-spawned');
    await mailroomOk(root, 'task', 'claim', '1', '--as', 'observer');
    await mailroomOk(root, 'task', 'update', '1', '--status', 'completed', '--as', 'observer');
    const f = 'tasks/compat/1.json';
    expect(withoutFencingToken(await readFile(join(root, f), 'utf8'))).toBe(await readFile(ref('3-teammate-idle', f), 'utf8'));
  });

  it("2 → 3: observer's direct message has Claude Code's fields plus 2.1.332's msgV, msg_id, type", async () => {
    const root = await snapshot('2-teammate-spawned');
    const text = 'HELLO-FROM-OBSERVER: observer is up and has nothing else to do.';
    await mailroomOk(root, 'team', 'send', 'team-lead', text, '--from', 'observer', '--summary', 'observer says hello');
    const [ours] = await readJson<Json[]>(join(root, 'teams/compat/inboxes/team-lead.json'));
    const [theirs] = await readJson<Json[]>(ref('3-teammate-idle', 'teams/compat/inboxes/team-lead.json'));
    expect(Object.keys(ours!)).toEqual(as2_1_332(Object.keys(theirs!)));
    expect({ ...ours, timestamp: 0, type: 0, msgV: 0, msg_id: 0 }).toEqual({ ...theirs, timestamp: 0, type: 0, msgV: 0, msg_id: 0 });
  });

  it('3 → 4: the shutdown_request has the fields, key order and request-id shape of Claude Code', async () => {
    const root = await snapshot('3-teammate-idle');
    await mailroomOk(root, 'team', 'send', 'observer', '--shutdown-request', '--reason', 'Scenario A complete');
    const ours = (await readJson<Json[]>(join(root, 'teams/compat/inboxes/observer.json')))[1]!;
    const theirs = (await readJson<Json[]>(ref('4-shutdown-approved', 'teams/compat/inboxes/observer.json')))[1]!;
    expect(Object.keys(ours)).toEqual(as2_1_332(Object.keys(theirs)));
    const [msgOurs, msgTheirs] = [JSON.parse(ours.text as string) as Json, JSON.parse(theirs.text as string) as Json];
    expect(Object.keys(msgOurs)).toEqual(Object.keys(msgTheirs));
    expect(msgOurs.requestId).toMatch(/^shutdown-\d{13}@observer$/);
    expect({ ...msgOurs, requestId: 0, timestamp: 0 }).toEqual({ ...msgTheirs, requestId: 0, timestamp: 0 });
    // One instant, as in Claude Code: the entry's timestamp, the message's timestamp and the id's ms.
    expect(msgOurs.timestamp).toBe(ours.timestamp);
    expect(`shutdown-${Date.parse(ours.timestamp as string)}@observer`).toBe(msgOurs.requestId);
  });

  it('4 → 5: the shutdown_approved echoes the request id and carries paneId and backendType', async () => {
    const root = await snapshot('4-shutdown-approved');
    await mailroomOk(root, 'team', 'send', 'team-lead', '--from', 'observer', '--shutdown-approve', '--request-id', 'shutdown-1795958477484@observer');
    const ours = (await readJson<Json[]>(join(root, 'teams/compat/inboxes/team-lead.json')))[3]!;
    const theirs = (await readJson<Json[]>(ref('5-member-removed', 'teams/compat/inboxes/team-lead.json')))[3]!;
    expect(Object.keys(ours)).toEqual(as2_1_332(Object.keys(theirs)));
    const [msgOurs, msgTheirs] = [JSON.parse(ours.text as string) as Json, JSON.parse(theirs.text as string) as Json];
    expect(Object.keys(msgOurs)).toEqual(Object.keys(msgTheirs));
    expect({ ...msgOurs, timestamp: 0 }).toEqual({ ...msgTheirs, timestamp: 0 });
  });

  it('spawn on a Claude Code config adds a member shaped like observer and keeps the rest', async () => {
    const root = await snapshot('3-teammate-idle');
    const before = await readJson<Json & { members: Json[] }>(join(root, 'teams/compat/config.json'));
    await mailroomOk(root, 'team', 'spawn', 'helper', '--prompt', 'Help observer.', '--model', 'claude-opus-4-6');
    const after = await readJson<Json & { members: Json[] }>(join(root, 'teams/compat/config.json'));
    expect({ ...after, members: after.members.slice(0, 2) }).toEqual(before);
    expect(keyPaths({ ...after, members: after.members.slice(0, 2) })).toEqual(keyPaths(before));
    // observer's keys, but no backendType: helper has no pane and is none of Claude Code's backends.
    // ...and isActive false last, as pane teammates carry it: nothing runs helper yet.
    expect(Object.keys(after.members[2]!)).toEqual([...Object.keys(before.members[1]!).filter((k) => k !== 'backendType'), 'isActive']);
    expect(after.members[2]).toMatchObject({ agentId: 'helper@compat', color: 'green', tmuxPaneId: '', planModeRequired: false });
  });
});
