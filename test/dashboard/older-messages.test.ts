/**
 * The dashboard's message window (files store, real HTTP): a state carries the newest 200
 * messages and the total; `GET /api/messages?before=<key>` pages back through the rest, oldest
 * first, ending at the first message; the page's HTML carries the current state.
 */
import { afterEach, expect, it } from 'vitest';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { openFsStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { startDashboard, type Dashboard } from '../../src/dashboard/server.js';
import type { WireMessage, WireState } from '../../src/dashboard/wire.js';
import { http } from '../helpers/dashboard-http.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir | undefined;
let stores: Stores | undefined;
let d: Dashboard | undefined;
afterEach(async () => {
  await d?.close();
  await stores?.close();
  await dir?.cleanup();
});

it('pages back past the newest 200 messages, and the page comes with the state', async () => {
  dir = await makeTempDir();
  stores = openFsStores(dir.path);
  await createTeam({ root: stores, team: 'demo' });
  await spawnMember({ root: stores, team: 'demo', name: 'alice' });
  const t0 = Date.UTC(2026, 2, 1);
  const entries = Array.from({ length: 450 }, (_, i) => ({ to: 'alice', entry: { from: 'team-lead', text: `note ${i}`, timestamp: new Date(t0 + i * 1000).toISOString(), read: false, msg_id: `m-${i}` } }));
  await stores.team.appendMessages('demo', entries);
  d = await startDashboard({ stores, team: 'demo', storeLabel: 'test' });
  const q = `token=${d.token}`;
  const state = JSON.parse((await http(d, `/api/state?${q}`)).body) as WireState;
  expect(state.messageTotal).toBe(450);
  expect(state.messages.map((m) => m.text)).toEqual(entries.slice(-200).map((e) => e.entry.text));
  const older = async (before: string) => JSON.parse((await http(d!, `/api/messages?${q}&before=${encodeURIComponent(before)}&limit=200`)).body) as WireMessage[];
  const page1 = await older(state.messages[0]!.key);
  expect(page1.map((m) => m.text)).toEqual(entries.slice(50, 250).map((e) => e.entry.text));
  const page2 = await older(page1[0]!.key);
  expect(page2.map((m) => m.text)).toEqual(entries.slice(0, 50).map((e) => e.entry.text));
  await expect(older(page2[0]!.key)).resolves.toEqual([]);
  const html = (await http(d, `/?${q}`)).body;
  const block = /<script type="application\/json" id="mailroom-state">(.*?)<\/script>/s.exec(html);
  // The same state or a later one (presence is judged again every 5 s, which makes a new version).
  const carried = JSON.parse(block![1]!) as WireState;
  expect(carried).toMatchObject({ team: 'demo', messageTotal: 450 });
  expect(carried.version).toBeGreaterThanOrEqual(state.version);
});
