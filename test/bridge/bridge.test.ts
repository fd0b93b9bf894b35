/**
 * `mailroom bridge` between two Claude Code roots and one real redis-server (docs/bridge.md): the
 * Claude Code side is written exactly as Claude Code 2.1.109 writes it (fixture shapes, its lock
 * protocol), the other side through the Redis store.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startBridge } from '../../src/bridge/bridge.js';
import { openFsStores } from '../../src/store/open.js';
import { afterEach, describe, expect, it } from 'vitest';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import type { TeamConfig } from '../../src/protocol/config.js';
import { claudeAppend, claudeMarkRead, underClaudeLock } from '../helpers/claude-locked.js';
import { until } from '../helpers/runtime.js';
import { inboxFile, TEAM, twoMachines, type TwoMachines } from './setup.js';

let t: TwoMachines | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function config(path: string): Promise<TeamConfig> {
  return JSON.parse(await readFile(path, 'utf8')) as TeamConfig;
}

function text(from: string, body: string, at = new Date().toISOString()): Record<string, unknown> {
  return { from, text: body, timestamp: at, color: 'blue', read: false };
}

describe('bridge', () => {
  it('makes the Claude Code team on A a team on B, with remote members Claude Code runs no part of', async () => {
    t = await twoMachines();
    await t.a.start();
    await t.b.start();
    const b = await config(t.b.config);
    expect(b.members.map((m) => m.name)).toEqual(['team-lead', 'observer']);
    const observer = b.members.find((m) => m.name === 'observer')!;
    expect(observer.tmuxPaneId).toBe('');
    expect(observer.backendType).toBeUndefined();
    expect(observer.agentId).toBe('observer@compat');
    // A's own file keeps its Claude Code shape: nothing rewritten there.
    const a = await config(t.a.config);
    expect(a.members.find((m) => m.name === 'observer')!.backendType).toBe('in-process');
  });

  it('carries a message each way once, with no echo, and a read flag back to the sender side', async () => {
    t = await twoMachines();
    await t.a.start();
    await t.b.start();
    await claudeAppend(t.a.inbox('observer'), text('team-lead', 'hello from A'));
    const onB = await until(async () => (await inboxFile(t!.b.inbox('observer'))).find((e) => e.text === 'hello from A'), 10_000, 'A→B');
    expect(onB.msg_id).toMatch(/^[0-9a-f-]{36}$/);
    await claudeAppend(t.b.inbox('team-lead'), text('observer', 'hello from B'));
    await until(async () => (await inboxFile(t!.a.inbox('team-lead'))).some((e) => e.text === 'hello from B'), 10_000, 'B→A');
    // The recipient (observer, on B) reads it: A's copy turns read too.
    await claudeMarkRead(t.b.inbox('observer'));
    await until(async () => (await inboxFile(t!.a.inbox('observer')))[0]?.read === true, 10_000, 'read flag B→A');
    await t.a.bridge!.idle();
    await t.b.bridge!.idle();
    for (const [path, n] of [[t.a.inbox('observer'), 1], [t.b.inbox('observer'), 1], [t.a.inbox('team-lead'), 1], [t.b.inbox('team-lead'), 1]] as const) {
      expect(await inboxFile(path)).toHaveLength(n);
    }
    expect((await t.a.remote.team.readInbox(TEAM, 'observer')).map((e) => e.read)).toEqual([true]);
  });

  it('members join both ways; a remote member gets isActive from its presence', async () => {
    t = await twoMachines();
    await t.a.start();
    await t.b.start();
    await t.b.remote.team.addMember(TEAM, { agentId: `worker@${TEAM}`, name: 'worker', joinedAt: Date.now(), tmuxPaneId: '', cwd: '/', subscriptions: [] });
    await until(async () => (await config(t!.a.config)).members.some((m) => m.name === 'worker'), 10_000, 'worker on A');
    await t.b.remote.team.claimReader(TEAM, 'worker', { kind: 'agent', host: 'b-host', pid: 4242, startedAt: Date.now() });
    await until(async () => (await config(t!.a.config)).members.find((m) => m.name === 'worker')?.isActive === true, 10_000, 'worker active on A');
    // A Claude Code teammate joining on A (config written under its lock) reaches B.
    await underClaudeLock<TeamConfig>(t.a.config, (c) => ({ ...c, members: [...c.members, { agentId: `helper@${TEAM}`, name: 'helper', joinedAt: Date.now(), tmuxPaneId: 'in-process', backendType: 'in-process', subscriptions: [] }] }));
    await until(async () => (await config(t!.b.config)).members.some((m) => m.name === 'helper'), 10_000, 'helper on B');
  });

  it('a member Claude Code removes on A (shutdown approved) leaves Redis and B', async () => {
    t = await twoMachines();
    await t.a.start();
    await t.b.start();
    await until(async () => (await config(t!.b.config)).members.some((m) => m.name === 'observer'), 10_000, 'observer on B');
    await underClaudeLock<TeamConfig>(t.a.config, (c) => ({ ...c, members: c.members.filter((m) => m.name !== 'observer') }));
    await until(async () => !(await config(t!.b.config)).members.some((m) => m.name === 'observer'), 10_000, 'observer gone from B');
    expect((await t.a.remote.team.readConfig(TEAM)).members.map((m) => m.name)).toEqual(['team-lead']);
  });

  it('Claude Code removing its team directory at exit does not delete the shared team', async () => {
    t = await twoMachines();
    await t.a.start();
    await rm(`${t.a.root}/teams/${TEAM}`, { recursive: true, force: true });
    await until(() => t!.a.statuses.some((s) => s.kind === 'local-missing'), 10_000, 'local-missing');
    const shared = await t.a.remote.team.readConfig(TEAM);
    expect(shared.members.map((m) => m.name)).toEqual(['team-lead', 'observer']);
  });

  it('concurrent writers on both sides: every message once on every copy', async () => {
    t = await twoMachines();
    await t.a.start();
    await t.b.start();
    const writers: Array<Promise<void>> = [];
    for (const w of [1, 2]) {
      writers.push((async () => { for (let i = 0; i < 40; i++) await claudeAppend(t!.a.inbox('observer'), text('team-lead', `a${w}-${i}`)); })());
      writers.push((async () => { for (let i = 0; i < 40; i++) await claudeAppend(t!.b.inbox('team-lead'), text('observer', `b${w}-${i}`)); })());
    }
    writers.push((async () => {
      for (let i = 0; i < 40; i++) await t!.a.remote.team.appendMessages(TEAM, [{ to: 'observer', entry: makeInboxEntry({ from: 'script', text: `r-${i}`, timestamp: new Date().toISOString(), msgId: `r-${i}-id` }) }]);
    })());
    await Promise.all(writers);
    const want = (prefix: string[]) => prefix.flatMap((p) => Array.from({ length: 40 }, (_, i) => `${p}-${i}`)).sort();
    const observer = want(['a1', 'a2', 'r']);
    const lead = want(['b1', 'b2']);
    const texts = async (path: string) => (await inboxFile(path)).map((e) => e.text).sort();
    await until(async () => (await texts(t!.b.inbox('observer'))).length >= observer.length && (await texts(t!.a.inbox('team-lead'))).length >= lead.length, 20_000, 'all copies');
    await t.a.bridge!.idle();
    await t.b.bridge!.idle();
    expect(await texts(t.a.inbox('observer'))).toEqual(observer);
    expect(await texts(t.b.inbox('observer'))).toEqual(observer);
    expect((await t.a.remote.team.readInbox(TEAM, 'observer')).map((e) => e.text).sort()).toEqual(observer);
    expect(await texts(t.a.inbox('team-lead'))).toEqual(lead);
    expect(await texts(t.b.inbox('team-lead'))).toEqual(lead);
  });

  it('an entry Claude Code 2.1.332 removed on delivery counts as read in Redis and is not copied back', async () => {
    t = await twoMachines();
    await t.a.start();
    await t.b.remote.team.appendMessages(TEAM, [{ to: 'observer', entry: makeInboxEntry({ from: 'team-lead', text: 'deliver me', timestamp: new Date().toISOString(), msgId: 'm-332' }) }]);
    await until(async () => (await inboxFile(t!.a.inbox('observer'))).some((e) => e.msg_id === 'm-332'), 10_000, 'copy on A');
    await t.a.bridge!.idle();
    await underClaudeLock<Array<Record<string, unknown>>>(t.a.inbox('observer'), (v) => v.filter((e) => e.msg_id !== 'm-332'));
    await until(async () => (await t!.a.remote.team.readInbox(TEAM, 'observer'))[0]?.read === true, 10_000, 'read in Redis');
    await t.a.bridge!.idle();
    expect(await inboxFile(t.a.inbox('observer'))).toEqual([]);
  });

  it('refuses a saved state it cannot read, and leaves the file as it was', async () => {
    t = await twoMachines();
    const path = join(t.a.root, 'mailroom', 'bridge', `${TEAM}.json`);
    await mkdir(join(t.a.root, 'mailroom', 'bridge'), { recursive: true });
    await writeFile(path, '{"v":1,"synced":');
    const local = openFsStores(t.a.root);
    await expect(startBridge({ team: TEAM, local: local.team, host: local.host, remote: t.a.remote.team })).rejects.toMatchObject({ code: 'FILE_CORRUPT' });
    expect(await readFile(path, 'utf8')).toBe('{"v":1,"synced":');
  });
});
