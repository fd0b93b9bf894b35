/**
 * The dashboard's claim history, path leases and bridged members on both stores (files in a temp
 * dir, a real redis-server), through real use cases and the real event stream: each claim with
 * its fencing token, who made it and how it ended (released, swept, completed), read from the
 * journal; a lease acquired and released elsewhere appears and goes without a reload; on a
 * bridged root the members the bridge brought in are marked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { removeMember, spawnMember } from '../../src/core/members/spawn.js';
import { addTask } from '../../src/core/tasks/board.js';
import { claimTask } from '../../src/core/tasks/claim.js';
import { updateTask } from '../../src/core/tasks/update.js';
import { acquireLease, releaseLeases } from '../../src/core/leases/path-leases.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { markRead } from '../../src/core/messages/inbox-read.js';
import { deadLetterDeparted } from '../../src/core/messages/dead-letters.js';
import { openFsStores, openStores, resolveSelection } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { startDashboard, type Dashboard } from '../../src/dashboard/server.js';
import type { WireState } from '../../src/dashboard/wire.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { nextState } from '../helpers/dashboard-http.js';
import { localCopy } from '../../src/bridge/members.js';

const backends: { name: string; open(dir: string): Promise<Stores> }[] = [
  { name: 'files', open: async (dir) => openFsStores(dir) },
  { name: 'redis', open: async (dir) => openStores(resolveSelection({ store: redis.url, root: dir, env: {} })) },
];
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

describe.each(backends)('dashboard claims and leases on $name', (backend) => {
  let dir: TempDir;
  let stores: Stores;
  let d: Dashboard | undefined;
  let team: string;
  let n = 0;

  const setUp = async (): Promise<void> => {
    dir = await makeTempDir();
    stores = await backend.open(dir.path);
    team = `claims${++n}${backend.name}`;
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice' });
    await spawnMember({ root: stores, team, name: 'bob' });
  };
  afterEach(async () => {
    await d?.close();
    d = undefined;
    await stores?.close();
    await dir?.cleanup();
  });

  it('shows each claim of a task from the journal: token, who, how it ended; live', async () => {
    await setUp();
    const target = { root: stores, team };
    await addTask({ ...target, subject: 'Port the parser' });
    // History made before the dashboard started is read from the journal…
    await claimTask({ ...target, id: '1', as: 'alice' });
    await updateTask({ ...target, id: '1', owner: null, status: 'pending', as: 'alice' });
    d = await startDashboard({ stores, team, storeLabel: 'test' });
    const first = await nextState(d, () => true);
    expect(first.tasks[0]!.claims).toEqual([expect.objectContaining({ owner: 'alice', token: expect.any(Number), by: 'alice', ended: 'released', endedBy: 'alice' })]);
    // …and what happens after arrives over the event stream.
    await claimTask({ ...target, id: '1', as: 'bob' });
    await stores.team.unassignTasks(team, 'bob', { actor: 'alice', statuses: ['in_progress'] }); // the sweep's transition (alice's runtime sweeping a dead bob)
    await claimTask({ ...target, id: '1', as: 'alice' });
    await updateTask({ ...target, id: '1', status: 'completed', as: 'alice' });
    // The claims come from the journal and the task from the board: wait for both to show the end.
    const done = (s: WireState) => s.tasks[0]!.claims.length === 3 && s.tasks[0]!.claims[2]!.ended === 'completed' && s.tasks[0]!.status === 'completed';
    const s = await nextState(d, done);
    expect(s.tasks[0]!.claims.map((c) => [c.owner, c.ended, c.endedBy])).toEqual([
      ['alice', 'released', 'alice'],
      ['bob', 'swept', 'alice'],
      ['alice', 'completed', 'alice'],
    ]);
    const tokens = s.tasks[0]!.claims.map((c) => c.token as number);
    expect(tokens[1]).toBeGreaterThan(tokens[0]!);
    expect(tokens[2]).toBeGreaterThan(tokens[1]!);
    expect(s.tasks[0]!.fencingToken).toBe(tokens[2]);
  });

  it('shows each message\'s delivery state: queued, delivered, read, replied, dead-lettered', async () => {
    await setUp();
    await spawnMember({ root: stores, team, name: 'carol' });
    d = await startDashboard({ stores, team, storeLabel: 'test' });
    const target = { root: stores, team };
    const asked = await sendMessage({ ...target, to: 'alice', text: 'which parser?', extras: { reply_expected: true } });
    await sendMessage({ ...target, to: 'bob', text: 'fyi' });
    await sendMessage({ ...target, to: 'carol', text: 'handed out' });
    await sendMessage({ ...target, to: 'carol', text: 'unread when carol left' });
    const of = (s: WireState, text: string) => s.messages.find((m) => m.text === text)?.delivery;
    await nextState(d, (s) => of(s, 'which parser?') === 'queued' && of(s, 'fyi') === 'queued' && of(s, 'handed out') === 'queued');
    // Handed to a consumer (a runtime's take: leased, not acknowledged): delivered, still unread.
    const carolInbox = await stores.team.readInbox(team, 'carol');
    const taken = await stores.team.takeUnread(team, 'carol', { reader: 'test-reader', limit: 1 });
    expect(taken.value.entries.map((e) => e.text)).toEqual(['handed out']);
    expect(carolInbox.every((e) => e.read !== true)).toBe(true);
    await nextState(d, (s) => of(s, 'handed out') === 'delivered' && of(s, 'unread when carol left') === 'queued');
    await markRead({ ...target, agent: 'bob', entries: await stores.team.readInbox(team, 'bob') });
    await sendMessage({ ...target, from: 'alice', to: 'team-lead', text: 'the new one', extras: { in_reply_to: asked.entry.msg_id } });
    await nextState(d, (s) => of(s, 'fyi') === 'read' && of(s, 'which parser?') === 'replied' && of(s, 'the new one') === 'queued');
    // carol leaves with mail she never read: it goes to the dead letters (as `team stop` and `leave` do).
    await removeMember({ ...target, name: 'carol' });
    await deadLetterDeparted({ ...target, name: 'carol' });
    const s = await nextState(d, (x) => of(x, 'unread when carol left') === 'dead-lettered' && x.deadLetters.length > 0);
    expect(s.deadLetters.map((l) => l.summary)).toContain('unread when carol left');
  });

  it('shows path leases as they are acquired and released, without a reload', async () => {
    await setUp();
    d = await startDashboard({ stores, team, storeLabel: 'test' });
    expect((await nextState(d, () => true)).leases).toEqual([]);
    const seen = nextState(d, (s) => s.leases.length === 1);
    const lease = await acquireLease({ root: stores, team, as: 'alice', paths: ['src/**'], reason: 'parser rewrite', repo: dir.path, cwd: dir.path });
    expect((await seen).leases[0]).toMatchObject({ id: lease.id, holder: 'alice', paths: ['src/**'], shared: false, reason: 'parser rewrite', token: lease.token, expiresAt: lease.expiresAt });
    const gone = nextState(d, (s) => s.leases.length === 0);
    await releaseLeases({ root: stores, team, as: 'alice', all: true });
    await gone;
  });
});

it('on a Claude Code root with a bridge: marks the members a bridge on this root brought in, and says where their state comes from', async () => {
  const dir = await makeTempDir();
  const stores = openFsStores(dir.path);
  const team = 'bridged';
  let d: Dashboard | undefined;
  try {
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice' });
    // As the bridge adds a member of the shared store: a copy Claude Code runs no part of, with the isActive its presence gives.
    const alice = (await stores.team.readConfig(team)).members.find((m) => m.name === 'alice')!;
    await stores.team.addMember(team, localCopy({ ...structuredClone(alice), name: 'carol', agentId: `carol@${team}` }, true));
    await stores.host.writeBridgeState(team, JSON.stringify({ v: 1, synced: {}, members: { carol: 'remote', alice: 'local', 'team-lead': 'local' }, tasks: {} }));
    d = await startDashboard({ stores, team, storeLabel: 'test' });
    const s = await nextState(d, () => true);
    const carol = s.members.find((m) => m.name === 'carol')!;
    expect(carol).toMatchObject({ bridged: true, state: 'working' });
    expect(carol.presence).toBeUndefined();
    expect(carol.stateReason).toMatch(/isActive is true — as .mailroom bridge. last copied it from the shared store/);
    expect(s.members.find((m) => m.name === 'alice')!.bridged).toBeUndefined();
  } finally {
    await d?.close();
    await dir.cleanup();
  }
});
