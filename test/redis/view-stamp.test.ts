/**
 * The Redis store's view stamp (TeamStore.viewStamp, Lease.viewStamp; issue 24): what a teammate's
 * kept guard reads (src/runtime/delivery/team-view.ts) stand on. Every change of the config, the
 * settings or the member records must move it — else a guard would judge a delivery by reads from
 * before the change — and the traffic of a delivery (sends, takes, acknowledgements, tasks, beats)
 * must not, else nothing could be kept — nor must a member's `isActive` alone (each turn's liveness
 * flag, read by no rule, guard or prompt). A take's reply carries the stamp of its own step.
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
  // The server holds read-view-stamp from here on: a stamp taken after SCRIPT LOAD comes back
  // marked, equal to none (test/redis/view-stamp-noscript.test.ts).
  await store.viewStamp('warm-up').catch(() => undefined);
});
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

let teamNo = 0;
async function team(): Promise<string> {
  const name = `v${++teamNo}`;
  const config = { name, description: 'd', createdAt: 1, leadAgentId: `team-lead@${name}`, leadSessionId: 's', members: [{ agentId: `team-lead@${name}`, name: 'team-lead', agentType: 'team-lead', joinedAt: 1 }] } as TeamConfig;
  await store.createTeam(config);
  for (const m of ['alice', 'bob']) await store.addMember(name, { agentId: `${m}@${name}`, name: m, agentType: 'worker', joinedAt: 2 });
  return name;
}

let sent = 0;
const send = (t: string, to = 'alice') => store.appendMessages(t, [{ to, entry: makeInboxEntry({ from: 'team-lead', text: `m${++sent}`, timestamp: new Date().toISOString(), msgId: `m${sent}` }) }]);
const take = async (t: string) => (await store.takeUnread(t, 'alice', { reader: 'r1', leaseMs: 60_000 })).value;

describe('view stamp', () => {
  it('a take carries the stamp of its step, the same as a read of it, with or without entries', async () => {
    const t = await team();
    const before = await store.viewStamp(t);
    expect((await take(t)).viewStamp).toBe(before); // nothing taken
    await send(t);
    const lease = await take(t);
    expect(lease.entries.map((e) => e.text)).toEqual([`m${sent}`]);
    expect(lease.viewStamp).toBe(before);
  });

  it('does not move for a delivery\'s own traffic: sends, takes, acknowledgements, releases, tasks, reader claims and beats', async () => {
    const t = await team();
    const before = await store.viewStamp(t);
    await send(t);
    await send(t, 'bob');
    const lease = await take(t);
    await store.acknowledge(t, 'alice', lease.id);
    await send(t);
    await store.release(t, 'alice', (await take(t)).id);
    const task = (await store.createTask(t, { subject: 's', description: '' })).value.task;
    await store.claimTask(t, { claimant: 'alice', id: task.id });
    await store.patchTask(t, task.id, { status: 'completed' });
    const claim = (await store.claimReader(t, 'alice', { kind: 'agent', host: 'h', pid: 1, startedAt: 1 })).value;
    await store.beat(t, 'alice', claim.token, 'working');
    await store.beat(t, 'alice', claim.token, 'idle');
    expect(await store.viewStamp(t)).toBe(before);
  });

  // Each change a guard or a system prompt must see, made alone on a fresh team: the stamp moves,
  // and a take after it says so (the take is what a teammate compares its kept reads against).
  const changes: Array<[string, (t: string) => Promise<unknown>]> = [
    ['a settings change (policy)', (t) => store.updateSettings(t, { 'policy.createTasks': ['@lead'] })],
    ['a settings change (signing)', (t) => store.updateSettings(t, { signing: { alg: 'ed25519', keyId: 'k', publicKey: 'p', since: 1 } })],
    ['a member added (and its record)', (t) => store.addMember(t, { agentId: `carol@${t}`, name: 'carol', joinedAt: 3 }, { record: { runtime: 'in-process' } })],
    ['a member removed', (t) => store.removeMember(t, 'bob')],
    ['a member updated (model)', (t) => store.updateMember(t, 'bob', { model: 'other' })],
    ['a member updated (isActive with another key)', (t) => store.updateMember(t, 'bob', { isActive: true, prompt: 'p' })],
    ['a member updated (its agentId: the lead\'s, when it is the lead)', (t) => store.updateMember(t, 'team-lead', { agentId: `boss@${t}` })],
  ];
  it.each(changes)('moves for %s', async (_what, change) => {
    const t = await team();
    const before = (await take(t)).viewStamp;
    await change(t);
    const after = await store.viewStamp(t);
    expect(after).not.toBe(before);
    expect((await take(t)).viewStamp).toBe(after);
  });

  it('does not move for `isActive` alone (every turn writes it twice; no rule, guard or prompt reads it), in either direction', async () => {
    const t = await team();
    const before = await store.viewStamp(t);
    await store.updateMember(t, 'alice', { isActive: true });
    await store.updateMember(t, 'alice', { isActive: false });
    expect(await store.viewStamp(t)).toBe(before);
    expect((await take(t)).viewStamp).toBe(before);
    // The member's document did change: a read shows it.
    expect((await store.readConfig(t)).members.find((m) => m.name === 'alice')?.isActive).toBe(false);
    // And an append under the stamp read before those writes lands.
    await store.appendMessages(t, [{ to: 'bob', entry: makeInboxEntry({ from: 'alice', text: 'kept', timestamp: new Date().toISOString(), msgId: 'kept-1' }) }], { expectViewStamp: before });
    expect((await store.readInbox(t, 'bob')).map((e) => e.text)).toEqual(['kept']);
  });

  it('never comes back to an earlier value: a member removed and added again, a team deleted and created or restored', async () => {
    const t = await team();
    const seen = new Set([await store.viewStamp(t)]);
    const fresh = async () => {
      const s = await store.viewStamp(t);
      expect(seen.has(s), `stamp ${s} seen before`).toBe(false);
      seen.add(s);
    };
    await store.removeMember(t, 'bob');
    await fresh();
    await store.addMember(t, { agentId: `bob@${t}`, name: 'bob', joinedAt: 9 });
    await fresh();
    await store.updateMember(t, 'bob', { model: 'm1' });
    await fresh();
    await store.updateMember(t, 'alice', { model: 'm1' }); // another member's version, the same sum of one more
    await fresh();
    const beforeDelete = await store.viewStamp(t);
    const deleted = await store.deleteTeam(t);
    await expect(store.viewStamp(t)).rejects.toMatchObject({ code: 'TEAM_NOT_FOUND' });
    await store.createTeam({ name: t, description: 'd', createdAt: 1, leadAgentId: `team-lead@${t}`, leadSessionId: 's', members: [{ agentId: `team-lead@${t}`, name: 'team-lead', joinedAt: 1 }] } as TeamConfig);
    await fresh();
    await store.deleteTeam(t);
    await store.restoreTeam(deleted.value.id);
    // The restored generation is the one deleted, unchanged since: the stamp it had then.
    expect(await store.viewStamp(t)).toBe(beforeDelete);
  });
});
