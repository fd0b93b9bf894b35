/**
 * `mailroom dashboard`'s server through real HTTP on both stores (files in a temp dir, a real
 * redis-server): the token is required on every route (401 without it), an action needs the
 * token header and the dashboard's own origin (a cross-site POST or a foreign Host is 403), bad
 * bodies are refused with a code, state is served and every change is pushed over server-sent
 * events without polling, and actions go through the use cases and their policy.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { changePolicy } from '../../src/core/teams/policy.js';
import { openFsStores, openStores, resolveSelection } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { startDashboard, type Dashboard } from '../../src/dashboard/server.js';
import type { WireActionResult, WireState } from '../../src/dashboard/wire.js';
import { http, nextState, post } from '../helpers/dashboard-http.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

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

describe.each(backends)('dashboard server on $name', (backend) => {
  let dir: TempDir;
  let stores: Stores;
  let d: Dashboard;
  let team: string;
  let n = 0;

  const setUp = async (): Promise<void> => {
    dir = await makeTempDir();
    stores = await backend.open(dir.path);
    team = `dash${++n}${backend.name}`;
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice' });
    await spawnMember({ root: stores, team, name: 'bob' });
    d = await startDashboard({ stores, team, storeLabel: 'test' });
  };
  afterEach(async () => {
    await d?.close();
    await stores?.close();
    await dir?.cleanup();
  });

  it('refuses every route without the token, and serves them with it', async () => {
    await setUp();
    for (const path of ['/', '/assets/app.js', '/api/state', '/api/events', '/api/teams', '/api/journal'])
      expect((await http(d, path)).status, path).toBe(401);
    expect((await http(d, `/?token=${'x'.repeat(d.token.length)}`)).status).toBe(401);
    const page = await http(d, `/?token=${d.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('/assets/app.js');
    const state = JSON.parse((await http(d, '/api/state', { headers: { 'x-mailroom-token': d.token } })).body) as WireState;
    expect(state.members.map((m) => m.name)).toEqual(['team-lead', 'alice', 'bob']);
    expect(state.members[0]?.model).toBeUndefined(); // the lead's placeholder model "unknown" is not shown (as in team show)
    expect(state.actor).toBe('team-lead');
    expect(JSON.parse((await http(d, '/api/teams', { headers: { 'x-mailroom-token': d.token } })).body)).toContain(team);
    // A team named in the query must exist on every route (a breaker found /api/journal answering 200 []).
    for (const path of ['/api/state', '/api/journal', '/api/transcript']) {
      const reply = await http(d, `${path}?team=..%2f..%2fetc&member=alice`, { headers: { 'x-mailroom-token': d.token } });
      expect(reply.status, path).toBe(404);
      expect(reply.body, path).toContain('TEAM_NOT_FOUND');
    }
  });

  it('refuses cross-site actions: no header, another origin, another Host', async () => {
    await setUp();
    const action = { kind: 'send', to: 'alice', text: 'hi' };
    // A form on another site can carry the cookie but not the header.
    const cookieOnly = await http(d, '/api/action', { method: 'POST', headers: { 'content-type': 'application/json', cookie: `mailroom_dashboard=${d.token}` }, body: JSON.stringify(action) });
    expect(cookieOnly.status).toBe(403);
    expect((await post(d, action, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(d, action, { host: 'evil.example' })).status).toBe(403);
    // A browser's own word on where the request comes from, even with no Origin header.
    expect((await post(d, action, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post(d, action, { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    const inbox = await stores.team.readInbox(team, 'alice');
    expect(inbox).toHaveLength(0);
  });

  it('refuses bad bodies with a code and changes nothing', async () => {
    await setUp();
    const bad = await post(d, { kind: 'explode' });
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    const notJson = await http(d, '/api/action', { method: 'POST', headers: { 'content-type': 'application/json', 'x-mailroom-token': d.token }, body: '{oops' });
    expect(notJson.status).toBe(400);
    const unknown = JSON.parse((await post(d, { kind: 'send', to: 'nobody', text: 'hi' })).body) as WireActionResult;
    expect(unknown).toMatchObject({ ok: false, code: 'MEMBER_NOT_FOUND' });
    expect(await stores.team.readInbox(team, 'alice')).toHaveLength(0);
  });

  it('pushes a message sent elsewhere over the event stream, and runs actions through the use cases', async () => {
    await setUp();
    const seen = nextState(d, (s) => s.messages.some((m) => m.text === 'from the library'));
    await sendMessage({ root: stores, team, to: 'alice', text: 'from the library' });
    const s = await seen;
    expect(s.messages.find((m) => m.text === 'from the library')).toMatchObject({ from: 'team-lead', to: 'alice', status: 'unread' });
    const sent = JSON.parse((await post(d, { kind: 'send', to: 'bob', text: 'from the page' })).body) as WireActionResult;
    expect(sent).toMatchObject({ ok: true });
    expect((await stores.team.readInbox(team, 'bob')).map((e) => e.text)).toEqual(['from the page']);
    const added = JSON.parse((await post(d, { kind: 'addTask', subject: 'Second', blockedBy: [] })).body) as WireActionResult;
    expect(added).toMatchObject({ ok: true });
    await post(d, { kind: 'addTask', subject: 'First' });
    expect(JSON.parse((await post(d, { kind: 'link', id: '1', blockedBy: '2' })).body)).toMatchObject({ ok: true });
    const board = await nextState(d, (x) => x.tasks.length === 2 && x.tasks[0]!.blockedBy.includes('2'));
    expect(board.tasks[0]).toMatchObject({ id: '1', openBlockers: ['2'], ready: false });
  });

  it('a refused action shows the rule (policy binds the member the page acts as)', async () => {
    await setUp();
    await d.close();
    await changePolicy({ root: stores, team }, [{ rule: 'message.bob', who: ['@lead'] }]);
    d = await startDashboard({ stores, team, storeLabel: 'test', as: 'bob' });
    const r = JSON.parse((await post(d, { kind: 'send', to: 'alice', text: 'sneaky' })).body) as WireActionResult;
    expect(r).toMatchObject({ ok: false, code: 'NOT_PERMITTED' });
    expect(r.ok === false && r.rule).toBeTruthy();
    expect(await stores.team.readInbox(team, 'alice')).toHaveLength(0);
    const journal = await http(d, '/api/journal?kind=refused', { headers: { 'x-mailroom-token': d.token } });
    expect(JSON.parse(journal.body)).toEqual([expect.objectContaining({ kind: 'refused', actor: 'bob' })]);
  });
});
