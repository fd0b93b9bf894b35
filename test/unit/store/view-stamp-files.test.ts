/**
 * The files view stamp (store/fs/view-stamp.ts) against rewrites of config.json that change no
 * view: presence (`isActive`), key order and spacing — as Claude Code or an editor may write it —
 * land; a real change (a member's model) is refused VIEW_MOVED. Break test, session 17: a
 * reorder-only rewrite was refused once.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTeam, spawnMember } from '../../../src/index.js';
import { openFsStores } from '../../../src/store/open.js';
import { Layout } from '../../../src/store/fs/paths.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => (dir = await makeTempDir('mailroom-view-stamp-')));
afterEach(async () => dir.cleanup());

const reversed = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(reversed) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)])) : v;

it('lands after config.json is rewritten with its keys reversed, 4-space indent and presence flipped; refuses after a real change', async () => {
  const stores = openFsStores(dir.path);
  await createTeam({ root: stores, team: 'demo' });
  await spawnMember({ root: stores, team: 'demo', name: 'bob' });
  const store = stores.team;
  const path = new Layout(dir.path).configPath('demo');
  const stamp = await store.viewStamp!('demo');
  const config = JSON.parse(await readFile(path, 'utf8')) as { members: Array<Record<string, unknown>> };
  for (const m of config.members) m.isActive = !m.isActive;
  await writeFile(path, JSON.stringify(reversed(config), null, 4));
  await store.appendMessages('demo', [{ to: 'bob', entry: { from: 'team-lead', text: 'same view', timestamp: new Date().toISOString(), read: false } }], { expectViewStamp: stamp });
  expect((await store.readInbox('demo', 'bob')).map((e) => e.text)).toEqual(['same view']);
  await store.updateMember('demo', 'bob', { model: 'other' });
  await expect(store.appendMessages('demo', [{ to: 'bob', entry: { from: 'team-lead', text: 'stale', timestamp: new Date().toISOString(), read: false } }], { expectViewStamp: stamp })).rejects.toMatchObject({ code: 'VIEW_MOVED' });
});

it("a take's stamp (Lease.viewStamp) is the same view as one before presence and key-order rewrites, and not after a settings change or a member's other field", async () => {
  const stores = openFsStores(dir.path);
  await createTeam({ root: stores, team: 'demo' });
  await spawnMember({ root: stores, team: 'demo', name: 'bob' });
  const store = stores.team;
  const path = new Layout(dir.path).configPath('demo');
  let n = 0;
  const take = async (): Promise<string> => {
    await store.appendMessages('demo', [{ to: 'bob', entry: { from: 'team-lead', text: `m${++n}`, timestamp: new Date().toISOString(), read: false } }]);
    const { value } = await store.takeUnread('demo', 'bob', { reader: 'r', leaseMs: 60_000 });
    expect(value.entries).toHaveLength(1);
    return value.viewStamp!;
  };
  // A take that hands out nothing carries no stamp on files.
  expect((await store.takeUnread('demo', 'bob', { reader: 'r', leaseMs: 60_000 })).value.viewStamp).toBeUndefined();
  const before = await store.viewStamp!('demo');
  expect(store.sameView!(before, await take())).toBe(true);

  const config = JSON.parse(await readFile(path, 'utf8')) as { members: Array<Record<string, unknown>> };
  for (const m of config.members) m.isActive = !m.isActive;
  await writeFile(path, JSON.stringify(reversed(config), null, 4));
  const presence = await take();
  expect(presence).not.toBe(before);
  expect(store.sameView!(before, presence)).toBe(true);

  await store.updateSettings('demo', { 'policy.createTasks': ['@lead'] });
  expect(store.sameView!(before, await take())).toBe(false);
  const settled = await store.viewStamp!('demo');
  await store.updateMember('demo', 'bob', { model: 'other' });
  expect(store.sameView!(settled, await take())).toBe(false);
  // An unreadable config digests to `-`: never the same view as anything but the very same stamp.
  await writeFile(path, '{ not json');
  const broken = await store.viewStamp!('demo');
  expect(broken.endsWith('#-')).toBe(true);
  expect(store.sameView!(broken, broken)).toBe(true);
  await writeFile(path, '{ not json either');
  expect(store.sameView!(broken, await store.viewStamp!('demo'))).toBe(false);
});
