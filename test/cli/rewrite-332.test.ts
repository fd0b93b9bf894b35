/**
 * mailroom's writes into teams of the real Claude Code 2.1.332 (copies of its snapshots 2–4, with
 * keys a future client might add planted in the config, `leadProcess`, a member, an inbox entry and
 * a task): spawning a member, sending, claiming, updating and removing change only the keys they
 * mean to; `leadProcess` and every unknown key stay, in place; what mailroom adds has the shape
 * 2.1.332 writes (no `prompt`, its entry key order) and says what the member is (no pane, no
 * backend type). Real CLI binary on temp copies.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseMessageText } from '../../src/protocol/structured.js';
import type { TempDir } from '../helpers/temp-dir.js';
import { REFERENCE_2_1_332, SESSION_TEAM_2_1_332 as TEAM, copyTree, keyPaths, mailroomOk, readJson, withoutFencingToken } from '../helpers/store-files.js';

type Json = Record<string, unknown>;
interface Config extends Json {
  members: Json[];
}

const FUTURE = { added: 'by a future Claude Code', n: [1, 2] };

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

/** Plants unknown keys where a later client might add them (config, leadProcess, a member, an inbox entry, a task). */
async function plantUnknownKeys(root: string): Promise<void> {
  await rewriteJson(join(root, 'teams', TEAM, 'config.json'), (c: Config) => {
    const members = c.members.map((m) => (m.name === 'observer' ? insertAfter(m, 'cwd', 'x-future', FUTURE) : m));
    const leadProcess = { ...(c.leadProcess as Json), 'x-lease': 7 };
    return insertAfter({ ...c, leadProcess, members }, 'leadProcess', 'x-future', FUTURE);
  });
  await rewriteJson(join(root, 'tasks', TEAM, '2.json'), (t: Json) => insertAfter(t, 'status', 'x-future', FUTURE));
  const lead = join(root, 'teams', TEAM, 'inboxes', 'team-lead.json');
  const entries = await readJson<Json[]>(lead).catch(() => undefined);
  if (entries && entries.length > 0) await writeFile(lead, JSON.stringify(entries.map((e, i) => (i === 0 ? insertAfter(e, 'msg_id', 'x-future', FUTURE) : e)), null, 2));
}

describe.each(['2-teammate-spawned', '3-teammate-idle', '4-shutdown-approved'])('rewrites on Claude Code 2.1.332 snapshot %s', (snapshot) => {
  let dir: TempDir;
  let root: string;
  const file = (p: string) => join(root, p);
  const configPath = () => file(`teams/${TEAM}/config.json`);
  const leadInbox = () => file(`teams/${TEAM}/inboxes/team-lead.json`);

  beforeEach(async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, snapshot));
    root = dir.path;
    await plantUnknownKeys(root);
  });
  afterEach(() => dir.cleanup());

  it('spawn adds a member shaped like 2.1.332 writes (no prompt), with no pane and no backend type, and keeps the rest in place', async () => {
    const before = await readJson<Config>(configPath());
    await mailroomOk(root, 'team', 'spawn', 'helper', '--prompt', 'Help observer.', '--model', 'claude-opus-5-5', '--cwd', root);
    const after = await readJson<Config>(configPath());
    const kept = { ...after, members: after.members.slice(0, before.members.length) };
    expect(kept).toEqual(before);
    expect(keyPaths(kept)).toEqual(keyPaths(before));
    expect(after.leadProcess).toEqual({ pid: 329, pidSpace: 'vm#pid:[4026531836]', claimedAt: 1796116016239, procStart: '436929', 'x-lease': 7 });
    const observer = before.members.find((m) => m.name === 'observer')!;
    const helper = after.members.at(-1)!;
    expect(Object.keys(helper)).toEqual([...Object.keys(observer).filter((k) => k !== 'backendType' && k !== 'x-future' && k !== 'isActive'), 'isActive']);
    expect(helper.isActive).toBe(false);
    expect(helper).toMatchObject({ agentId: `helper@${TEAM}`, name: 'helper', color: 'green', tmuxPaneId: '', subscriptions: [], model: 'claude-opus-5-5', planModeRequired: false, cwd: root });
    // The prompt is mailroom's: in its member record and the first inbox message, not in config.json.
    expect(await readJson(file(`mailroom/members/${TEAM}/helper.json`))).toMatchObject({ name: 'helper', runtime: 'in-process', prompt: 'Help observer.' });
    const [prompt] = await readJson<Json[]>(file(`teams/${TEAM}/inboxes/helper.json`));
    expect(Object.keys(prompt!)).toEqual(['from', 'text', 'timestamp', 'msgV', 'msg_id', 'type', 'read']);
    expect(prompt).toMatchObject({ from: 'team-lead', text: 'Help observer.', read: false });
  });

  it("send appends an entry in 2.1.332's key order and leaves every other entry as it was", async () => {
    const before = await readJson<Json[]>(leadInbox()).catch(() => [] as Json[]);
    const configBefore = await readFile(configPath());
    await mailroomOk(root, 'team', 'send', 'team-lead', 'HELLO-FROM-OBSERVER: again', '--from', 'observer', '--summary', 'observer says hello');
    const after = await readJson<Json[]>(leadInbox());
    expect(after.slice(0, before.length)).toEqual(before);
    expect(keyPaths(after.slice(0, before.length))).toEqual(keyPaths(before));
    const ours = after.at(-1)!;
    const theirs = (await readJson<Json[]>(join(REFERENCE_2_1_332, '3-teammate-idle', `teams/${TEAM}/inboxes/team-lead.json`)))[0]!;
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect({ ...ours, text: 0, timestamp: 0, msg_id: 0 }).toEqual({ ...theirs, text: 0, timestamp: 0, msg_id: 0 });
    expect(await readFile(configPath())).toEqual(configBefore);
  });

  it('claim and update change only owner, status and the field named, keeping unknown keys where they were', async () => {
    const ready = snapshot === '2-teammate-spawned' ? '1' : '2';
    const path = file(`tasks/${TEAM}/${ready}.json`);
    const before = await readJson<Json>(path);
    await mailroomOk(root, 'task', 'claim', ready, '--as', 'observer');
    await mailroomOk(root, 'task', 'update', ready, '--description', 'Changed by mailroom.');
    const after = await readJson<Json>(path);
    const claimedAt = Date.now();
    expect(after).toEqual({ ...before, owner: 'observer', status: 'in_progress', description: 'Changed by mailroom.', fencingToken: expect.any(Number) });
    expect(after.fencingToken as number).toBeLessThanOrEqual(claimedAt); // the store's clock in ms at the claim (the first one)
    // The claim's fencing token goes last: Claude Code keeps keys it does not know.
    const expectedKeys = [...Object.keys(before).flatMap((k) => (k === 'status' ? ['owner', 'status'] : [k])), 'fencingToken'];
    expect(Object.keys(after)).toEqual(expectedKeys);
    if (ready === '2') expect(after['x-future']).toEqual(FUTURE);
  });

  it('spawning a member and removing it again gives back the config byte for byte', async () => {
    const before = await readFile(configPath(), 'utf8');
    await mailroomOk(root, 'team', 'spawn', 'helper', '--cwd', root);
    await mailroomOk(root, 'team', 'stop', 'helper', '--force');
    expect(await readFile(configPath(), 'utf8')).toBe(before);
    await expect(readFile(file(`mailroom/members/${TEAM}/helper.json`))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('claim and completion on 2.1.332 snapshot 2 give what 2.1.332 wrote in snapshot 3', () => {
  let dir: TempDir;
  afterEach(() => dir.cleanup());

  it('task 1 claimed and completed by observer, byte for byte', async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, '2-teammate-spawned'));
    await mailroomOk(dir.path, 'task', 'claim', '1', '--as', 'observer');
    await mailroomOk(dir.path, 'task', 'update', '1', '--status', 'completed', '--as', 'observer');
    const f = `tasks/${TEAM}/1.json`;
    expect(withoutFencingToken(await readFile(join(dir.path, f), 'utf8'))).toBe(await readFile(join(REFERENCE_2_1_332, '3-teammate-idle', f), 'utf8'));
  });
});

describe('a process teammate in a 2.1.332 team', () => {
  let dir: TempDir;
  afterEach(() => dir.cleanup());

  it('is registered with no pane and no backend type, answers team stop, and leaves the config as it was', async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, '3-teammate-idle'));
    const root = dir.path;
    const before = await readFile(join(root, `teams/${TEAM}/config.json`), 'utf8');
    await mailroomOk(root, 'team', 'spawn', 'carol', '--backend', 'process', '--model', 'worker', '--cwd', root);
    const carol = (await readJson<Config>(join(root, `teams/${TEAM}/config.json`))).members.at(-1)!;
    expect(carol).toMatchObject({ name: 'carol', tmuxPaneId: '' });
    expect(carol).not.toHaveProperty('backendType');
    expect(carol).not.toHaveProperty('prompt');
    expect(await readJson(join(root, `mailroom/members/${TEAM}/carol.json`))).toMatchObject({ runtime: 'process' });
    const stop = JSON.parse((await mailroomOk(root, 'team', 'stop', 'carol', '--json')).stdout) as { outcome: string };
    expect(stop.outcome).toBe('approved');
    const approval = (await readJson<Json[]>(join(root, `teams/${TEAM}/inboxes/team-lead.json`))).map((e) => parseMessageText(e.text as string)).find((m) => m.kind === 'structured' && m.message.type === 'shutdown_approved');
    expect(approval?.kind === 'structured' && Object.keys(approval.message)).toEqual(['type', 'requestId', 'from', 'timestamp']);
    await expect(readFile(join(root, `teams/${TEAM}/processes/carol.json`))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(join(root, `teams/${TEAM}/config.json`), 'utf8')).toBe(before);
  });
});
