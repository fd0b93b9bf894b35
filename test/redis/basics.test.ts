/**
 * The Redis team store against a real redis-server: each transition's outcome, its events, and
 * the documents round-tripping with their key order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamConfig } from '../../src/protocol/config.js';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { openRedisTeamStore, type RedisTeamStore } from '../../src/store/redis/index.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let server: RedisServer;
let store: RedisTeamStore;
beforeAll(async () => {
  server = await startRedis();
  store = await openRedisTeamStore({ kind: 'redis', url: server.url, hostRoot: server.dir });
});
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

let teamNo = 0;
async function team(members: string[] = ['alice', 'bob']): Promise<string> {
  const name = `t${++teamNo}`;
  const config = {
    name,
    description: 'd',
    createdAt: 1,
    leadAgentId: `team-lead@${name}`,
    leadSessionId: 's',
    members: [{ agentId: `team-lead@${name}`, name: 'team-lead', agentType: 'team-lead', joinedAt: 1 }],
    zUnknown: { keep: [1, 2] },
  } as TeamConfig;
  await store.createTeam(config, { actor: 'team-lead', now: 1000 });
  for (const m of members) await store.addMember(name, { agentId: `${m}@${name}`, name: m, agentType: 'worker', joinedAt: 2 }, { assignColor: true });
  return name;
}

function entry(from: string, text: string, timestamp = '2026-03-01T12:00:00.000Z', msgId?: string) {
  return makeInboxEntry({ from, text, timestamp, msgId: msgId ?? `${from}-${text}` });
}

describe('teams and members', () => {
  it('keeps the config key order, unknown keys and palette colors by position', async () => {
    const t = await team();
    const config = await store.readConfig(t);
    expect(Object.keys(config)).toEqual(['name', 'description', 'createdAt', 'leadAgentId', 'leadSessionId', 'members', 'zUnknown']);
    expect(config.members.map((m) => [m.name, m.color])).toEqual([['team-lead', undefined], ['alice', 'blue'], ['bob', 'green']]);
    expect(Object.keys(config.members[1]!)).toEqual(['agentId', 'name', 'agentType', 'color', 'joinedAt']);
    expect((await store.listTeams()).map((r) => r.name)).toContain(t);
    await expect(store.createTeam(config)).rejects.toMatchObject({ code: 'TEAM_EXISTS' });
    await expect(store.addMember(t, { agentId: 'x', name: 'ALICE' })).rejects.toMatchObject({ code: 'MEMBER_EXISTS' });
  });

  it('updates, removes (unassigning open tasks) and deletes/restores a team', async () => {
    const t = await team();
    const up = await store.updateMember(t, 'alice', { isActive: true, agentType: null });
    expect(up.value).toMatchObject({ isActive: true });
    expect('agentType' in up.value).toBe(false);
    expect(up.events).toMatchObject([{ kind: 'member', action: 'updated', name: 'alice', changed: ['isActive', 'agentType'] }]);
    expect((await store.updateMember(t, 'alice', { isActive: true })).events).toEqual([]);
    const task = (await store.createTask(t, { subject: 's', description: '' })).value.task;
    await store.claimTask(t, { claimant: 'alice', id: task.id });
    const removed = await store.removeMember(t, 'alice@' + t);
    expect(removed.value?.member.name).toBe('alice');
    expect(removed.value?.unassigned.map((x) => [x.id, x.status, x.owner])).toEqual([[task.id, 'pending', undefined]]);
    expect((await store.removeMember(t, 'team-lead')).value).toBeUndefined();
    const deleted = await store.deleteTeam(t);
    await expect(store.readConfig(t)).rejects.toMatchObject({ code: 'TEAM_NOT_FOUND' });
    expect((await store.listDeletedTeams(t))[0]?.id).toBe(deleted.value.id);
    await store.restoreTeam(deleted.value.id);
    expect((await store.readConfig(t)).members.map((m) => m.name)).toEqual(['team-lead', 'bob']);
  });
});

describe('inboxes', () => {
  it('appends once per idempotency key, keeps timestamps unique and non-decreasing', async () => {
    const t = await team();
    const a = await store.appendMessages(t, [{ to: 'bob', entry: entry('alice', 'hi') }, { to: 'bob', entry: entry('alice', 'hi', '2026-03-01T12:00:00.000Z', 'x2') }], { idempotencyKey: 'k1' });
    expect(a.value.replayed).toBe(false);
    expect(a.value.messages.map((m) => m.entry.timestamp)).toEqual(['2026-03-01T12:00:00.000Z', '2026-03-01T12:00:00.001Z']);
    const again = await store.appendMessages(t, [{ to: 'bob', entry: entry('alice', 'hi') }], { idempotencyKey: 'k1' });
    expect(again.value).toEqual({ messages: a.value.messages, replayed: true });
    const early = await store.appendMessages(t, [{ to: 'bob', entry: entry('carol', 'x', '2020-01-01T00:00:00.000Z', 'e') }]);
    expect(early.value.messages[0]!.entry.timestamp).toBe('2026-03-01T12:00:00.001Z');
    const inbox = await store.readInbox(t, 'bob');
    expect(inbox).toHaveLength(3);
    expect(Object.keys(inbox[0]!)).toEqual(['from', 'text', 'timestamp', 'msgV', 'msg_id', 'type', 'read']); // as makeInboxEntry builds it: Claude Code 2.1.332's key order, kept by the store
    await expect(store.appendMessages(t, [{ to: 'bob', entry: entry('a', 'b') }, { to: 'ghost', entry: entry('a', 'b') }])).rejects.toMatchObject({ code: 'MEMBER_NOT_FOUND' });
    expect(await store.readInbox(t, 'bob')).toHaveLength(3);
  });

  it('hands out each unread entry once, and acknowledges, releases and marks read', async () => {
    const t = await team();
    await store.appendMessages(t, ['1', '2', '3'].map((n) => ({ to: 'bob', entry: entry('alice', n, `2026-03-01T12:00:0${n}.000Z`) })));
    const first = await store.takeUnread(t, 'bob', { reader: 'r1', limit: 2 });
    expect(first.value.entries.map((e) => e.text)).toEqual(['1', '2']);
    expect(first.value.remaining).toBe(1);
    expect(first.events.map((e) => e.kind === 'delivery' && e.state)).toEqual(['delivered', 'delivered']);
    const second = await store.takeUnread(t, 'bob', { reader: 'r2' });
    expect(second.value.entries.map((e) => e.text)).toEqual(['3']);
    expect((await store.takeUnread(t, 'bob', { reader: 'r3' })).value).toMatchObject({ id: '', entries: [], remaining: 0 });
    expect((await store.acknowledge(t, 'bob', first.value.id)).value).toBe(2);
    expect((await store.release(t, 'bob', second.value.id)).value).toBe(1);
    const inbox = await store.readInbox(t, 'bob');
    expect(inbox.map((e) => e.read)).toEqual([true, true, false]);
    expect((await store.markRead(t, 'bob', ['alice-3'])).value).toBe(1);
    expect((await store.archiveInbox(t, 'bob')).value).toBe(3);
    expect(await store.readInbox(t, 'bob')).toEqual([]);
    expect((await store.readInboxHistory(t, 'bob')).archived.map((e) => [e.text, e.read])).toEqual([['1', true], ['2', true], ['3', true]]);
  });

  it('gives expired leases out again', async () => {
    const t = await team();
    await store.appendMessages(t, [{ to: 'bob', entry: entry('alice', 'x') }]);
    await store.takeUnread(t, 'bob', { reader: 'r1', leaseMs: 1000, now: 10_000 });
    expect((await store.takeUnread(t, 'bob', { reader: 'r2', now: 10_500 })).value.entries).toHaveLength(0);
    expect((await store.takeUnread(t, 'bob', { reader: 'r2', now: 11_001 })).value.entries).toHaveLength(1);
  });
});

describe('tasks', () => {
  it('creates with INCR ids, claims with one winner, refuses cycles and keeps key order', async () => {
    const t = await team();
    const one = (await store.createTask(t, { subject: 'one', description: 'd', metadata: { big: 12345678901234567890n.toString(), n: 1.5e300, z: null } }, { idempotencyKey: 'c1' })).value.task;
    expect(one).toEqual({ id: '1', subject: 'one', description: 'd', status: 'pending', blocks: [], blockedBy: [], metadata: { big: '12345678901234567890', n: 1.5e300 } });
    expect((await store.createTask(t, { subject: 'one', description: 'd' }, { idempotencyKey: 'c1' })).value).toEqual({ task: one, replayed: true });
    const two = (await store.createTask(t, { subject: 'two', description: '', blockedBy: ['1'] })).value.task;
    expect(two.id).toBe('2');
    expect((await store.readTask(t, '1'))?.blocks).toEqual(['2']);
    await expect(store.claimTask(t, { claimant: 'bob', id: '2' })).rejects.toMatchObject({ code: 'TASK_BLOCKED', details: { blockedBy: ['1'] } });
    await expect(store.linkTasks(t, [{ blocked: '1', blocker: '2' }])).rejects.toMatchObject({ code: 'TASK_CYCLE', details: { cycle: ['1', '2', '1'] } });
    const claims = await Promise.allSettled([store.claimTask(t, { claimant: 'alice', id: '1' }), store.claimTask(t, { claimant: 'bob', id: '1' })]);
    expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    const patched = await store.patchTask(t, '1', { status: 'completed', metadata: { n: null, added: true } });
    expect(patched.value.task).toMatchObject({ status: 'completed', metadata: { big: '12345678901234567890', added: true } });
    expect(patched.events).toMatchObject([{ kind: 'task', action: 'updated', changed: ['metadata', 'status'] }]);
    expect((await store.claimTask(t, { claimant: 'bob' })).value?.id).toBe('2');
    await store.deleteTask(t, '2');
    expect((await store.createTask(t, { subject: 'three', description: '' })).value.task.id).toBe('3');
    expect(await store.readHighWatermark(t)).toBe('3');
    expect((await store.readTask(t, '1'))?.blocks).toEqual([]);
  });
});

describe('events and watch', () => {
  it('journals what transitions return, reads with a cursor, and hints pushes', async () => {
    const t = await team([]);
    const hints: string[] = [];
    const handle = await store.watch(t, (h) => hints.push(h.kind === 'inbox' ? `inbox ${h.member}` : h.kind));
    const page0 = await store.readEvents(t);
    expect(page0.events.map((e) => e.kind)).toEqual(['team', 'member']);
    const sent = await store.appendMessages(t, [{ to: 'team-lead', entry: entry('team-lead', 'note') }]);
    const page1 = await store.readEvents(t, { since: page0.cursor });
    expect(page1.events).toEqual(sent.events);
    expect(page1.reset).toBe(false);
    await expect.poll(() => hints, { timeout: 10_000 }).toContain('inbox team-lead');
    await handle.close();
  });
});
