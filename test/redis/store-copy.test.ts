/**
 * `mailroom store copy` through the real binary with a real redis-server: a Claude Code team
 * (2.1.109 snapshot) and a team mailroom ran (the demo DAG, with an unread message and an archive)
 * go files → Redis → files and come back equal — members, inbox entries with their read state,
 * archives, tasks with ids and links, the high-water mark, member records, the journal — and the
 * copy in Redis works as a team. A copy never overwrites a team: TEAM_EXISTS (exit 4), the target
 * unchanged; the same store on both sides is refused.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTeamImage } from '../../src/core/teams/store-copy.js';
import { openStores } from '../../src/store/open.js';
import type { StoreSelection } from '../../src/store/selection.js';
import type { TeamImage } from '../../src/store/team-store.js';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv, copyTree, FIXTURES, REFERENCE_2_1_109 } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let server: RedisServer;
let dir: TempDir;
beforeAll(async () => {
  server = await startRedis();
  dir = await makeTempDir('mailroom-store-copy-');
});
afterAll(async () => {
  await server?.stop();
  await dir?.cleanup();
});

/** `mailroom <args>`; `--root` is this machine's directory unless args name one. */
const cli = (...args: string[]) => runCli([...(args.includes('--root') ? [] : ['--root', join(dir.path, 'host')]), ...args], cleanEnv({ MAILROOM_STORE: '' }));
async function ok(...args: string[]): Promise<string> {
  const run = await cli(...args);
  expect(run.code, `mailroom ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run.stdout;
}

/** The image of `team` in a store, in a canonical order (tasks by id, inboxes by name). */
async function imageOf(selection: StoreSelection, team: string): Promise<TeamImage> {
  const stores = await openStores(selection);
  try {
    const image = await readTeamImage(stores.team, team);
    return { ...image, tasks: [...image.tasks].sort((a, b) => Number(a.id) - Number(b.id)), inboxes: [...image.inboxes].sort((a, b) => (a.name < b.name ? -1 : 1)) };
  } finally {
    await stores.close();
  }
}

describe('mailroom store copy', () => {
  it('a Claude Code team: files → Redis → files, equal to the original', async () => {
    const source = await copyTree(join(REFERENCE_2_1_109, '3-teammate-idle'));
    try {
      const db = `${server.url}/1`;
      const original = await imageOf({ kind: 'fs', root: source.path }, 'compat');
      expect(original.tasks.length).toBeGreaterThan(0);
      expect(await ok('store', 'copy', '--team', 'compat', '--from', source.path, '--to', db)).toMatch(/^Copied team compat from .* to redis:\/\/127\.0\.0\.1:\d+\/1: /);
      expect(await imageOf({ kind: 'redis', url: db, hostRoot: dir.path }, 'compat')).toEqual(original);
      const back = join(dir.path, 'cc-back');
      await ok('store', 'copy', '--team', 'compat', '--from', db, '--to', back);
      expect(await imageOf({ kind: 'fs', root: back }, 'compat')).toEqual(original);
    } finally {
      await source.cleanup();
    }
  });

  it('a team mailroom ran: files → Redis → files equal (read state, links, records, journal); the Redis copy goes on as a team', async () => {
    const a = join(dir.path, 'a');
    const run = await runCli(['run', join(FIXTURES, 'demo', 'team.yaml'), '--root', a, '--workdir', join(dir.path, 'work'), '--timeout', '60s'], cleanEnv({ MAILROOM_STORE: '' }));
    expect(run.code, run.stderr).toBe(0);
    await ok('--root', a, '--team', 'demo', 'team', 'spawn', 'dave', '--prompt', 'Unread for now');
    await ok('--root', a, '--team', 'demo', 'inbox', '--mark-read');
    const original = await imageOf({ kind: 'fs', root: a }, 'demo');
    expect(original.tasks.filter((t) => t.blockedBy.length > 0).length).toBeGreaterThan(0);
    expect(original.inboxes.find((i) => i.name === 'dave')?.entries.map((e) => e.read)).toEqual([false]);
    expect(original.memberRecords.map((r) => r.name)).toContain('dave');
    expect(original.events.length).toBeGreaterThan(50);

    const db = `${server.url}/2`;
    const copied = JSON.parse(await ok('store', 'copy', '--team', 'demo', '--from', a, '--to', db, '--json')) as { tasks: number; unread: number; highWatermark: string };
    expect(copied).toMatchObject({ tasks: 6, unread: 1, highWatermark: '6' });
    const b = join(dir.path, 'b');
    await ok('store', 'copy', '--team', 'demo', '--from', db, '--to', b);
    expect(await imageOf({ kind: 'fs', root: b }, 'demo')).toEqual(original);

    // The copy in Redis is a working team: the next task is #7, dave's unread prompt is still his.
    expect(await ok('--store', db, '--team', 'demo', 'task', 'add', 'Next')).toContain('#7');
    const inbox = JSON.parse(await ok('--store', db, '--team', 'demo', 'inbox', 'dave', '--unread', '--json')) as { messages: Array<{ entry: { text: string } }> };
    expect(inbox.messages.map((m) => m.entry.text)).toEqual(['Unread for now']);

    // Never over an existing team, on either backend: TEAM_EXISTS (exit 4), the target as it was.
    const redisBefore = await imageOf({ kind: 'redis', url: db, hostRoot: dir.path }, 'demo');
    const intoRedis = await cli('store', 'copy', '--team', 'demo', '--from', a, '--to', db);
    expect(intoRedis.code).toBe(4);
    expect(intoRedis.stderr).toContain('TEAM_EXISTS');
    expect(await imageOf({ kind: 'redis', url: db, hostRoot: dir.path }, 'demo')).toEqual(redisBefore);
    const intoFiles = await cli('store', 'copy', '--team', 'demo', '--from', db, '--to', b);
    expect(intoFiles.code).toBe(4);
    expect(intoFiles.stderr).toContain(`Team "demo" already exists in ${b}`);
    expect(await imageOf({ kind: 'fs', root: b }, 'demo')).toEqual(original);

    const same = await cli('store', 'copy', '--team', 'demo', '--from', a, '--to', a);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('INVALID_ARGUMENT');
  }, 120_000); // the whole demo run (its own limit 60 s) and a dozen CLI verbs: 30 s ran out at load ~20 (suite run, session 21)
});
