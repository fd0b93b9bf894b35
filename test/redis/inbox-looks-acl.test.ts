/**
 * The inbox looks an append publishes on its recipient's own channel (src/store/redis/inbox-looks.ts)
 * under `store grant` users, on a real redis-server: a user granted now gets them; a user granted
 * before those channels existed (its rules name the team's channel alone) is refused NOPERM on
 * them, and must lose nothing else — its sends still go through (the script's PUBLISH of the look
 * is a pcall), its look subscription is refused without hanging the subscriber connection (the
 * team's hints still come on it), and it simply gets no look.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { teamGrant } from '../../src/store/redis/acl.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import type { StoreHint } from '../../src/store/team-store.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let server: RedisServer;
let host: TempDir;
let admin: Stores;
beforeAll(async () => {
  server = await startRedis();
  host = await makeTempDir('mailroom-looks-acl-');
  admin = await openStores({ kind: 'redis', url: server.url, hostRoot: host.path });
});
afterAll(async () => {
  await admin?.close();
  await server?.stop();
  await host?.cleanup();
});

/** Creates `team` with alice and the ACL user of `rules` (a grant's, maybe edited); returns stores logged in as it. */
async function grantedStores(team: string, edit: (rules: string[]) => string[] = (r) => r): Promise<Stores> {
  await createTeam({ root: admin, team });
  await spawnMember({ root: admin, team, name: 'alice' });
  const grant = teamGrant(server.url, team);
  const raw = createClient({ url: server.url });
  await raw.connect();
  try {
    await raw.sendCommand(['ACL', 'SETUSER', grant.user, ...edit(grant.rules).filter((r) => !r.startsWith('+client|setinfo'))]);
  } finally {
    await raw.close();
  }
  return openStores({ kind: 'redis', url: grant.url, hostRoot: host.path });
}

describe('inbox looks under granted users', () => {
  it('a user granted now: the recipient gets the look of a send', async () => {
    const stores = await grantedStores('granted-now');
    try {
      const handle = await stores.team.watchInboxLooks!('granted-now', 'alice');
      const hints: StoreHint[] = [];
      const watch = await stores.team.watch('granted-now', (h) => hints.push(h));
      await sendMessage({ root: stores, team: 'granted-now', to: 'alice', text: 'ping' });
      await expect.poll(() => hints.some((h) => h.kind === 'inbox' && h.member === 'alice'), { timeout: 10_000 }).toBe(true);
      const look = stores.team.hintedLook!('granted-now', 'alice');
      expect(look?.entries.map((e) => e.text)).toEqual(['ping']);
      expect(look?.viewStamp).toBe(await stores.team.viewStamp!('granted-now'));
      await watch.close();
      await handle.close();
    } finally {
      await stores.close();
    }
  });

  it('a user granted before the look channels: sends work, the refused subscription hangs nothing, no look comes', async () => {
    const stores = await grantedStores('granted-before', (rules) => rules.filter((r) => !r.endsWith(':*') || r.startsWith('~')));
    try {
      // Refused NOPERM by the server: resolves all the same, and the connection goes on.
      const handle = await stores.team.watchInboxLooks!('granted-before', 'alice');
      const hints: StoreHint[] = [];
      const watch = await stores.team.watch('granted-before', (h) => hints.push(h));
      const sent = await sendMessage({ root: stores, team: 'granted-before', to: 'alice', text: 'ping' });
      expect(sent.entry.text).toBe('ping');
      await expect.poll(() => hints.some((h) => h.kind === 'inbox' && h.member === 'alice'), { timeout: 10_000 }).toBe(true);
      expect(stores.team.hintedLook!('granted-before', 'alice')).toBeUndefined();
      expect((await stores.team.readInbox('granted-before', 'alice')).map((e) => e.text)).toEqual(['ping']);
      await watch.close();
      await handle.close();
    } finally {
      await stores.close();
    }
  });
});
