/**
 * The real `mailroom` binary on the Redis store (`--store redis://…`), as opened by
 * src/store/open.ts — a smoke check of the selection, not the full CLI on Redis (wiring the
 * runtime, watch and mcp onto it is later work): the hot verbs create a team, spawn, send, read
 * the inbox, add, claim and list tasks, stop a member with unread mail (dead letters), with the team state in Redis (nothing under `teams/` or
 * `tasks/` of the root, which holds only this machine's records) and the member record in Redis
 * too; an unreachable server is STORE_UNAVAILABLE (exit 6) through the CLI's one error table.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../../src/store/open.js';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let server: RedisServer;
let host: TempDir;
beforeAll(async () => {
  server = await startRedis();
  host = await makeTempDir('mailroom-redis-cli-');
});
afterAll(async () => {
  await server?.stop();
  await host?.cleanup();
});

const mailroom = (...args: string[]) => runCli(['--store', server.url, '--root', host.path, ...args], cleanEnv());

async function ok(...args: string[]): Promise<string> {
  const run = await mailroom(...args);
  expect(run.code, `mailroom ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run.stdout;
}

describe('mailroom --store redis://…', () => {
  it('dead-letters a stopped member\'s unread mail, lists it, shows it and retries it once', async () => {
    await ok('team', 'create', 'dl');
    await ok('--team', 'dl', 'team', 'spawn', 'dan');
    const sent = JSON.parse(await ok('--team', 'dl', 'team', 'send', 'dan', 'for dan', '--json')) as { entry: { msg_id: string } };
    const id = sent.entry.msg_id;
    await ok('--team', 'dl', 'team', 'stop', 'dan');
    const list = JSON.parse(await ok('--team', 'dl', 'dead-letter', 'list', '--json')) as Array<{ id: string; to: string }>;
    expect(list.map((l) => [l.id, l.to])).toEqual([[id, 'dan']]);
    expect(JSON.parse(await ok('--team', 'dl', 'message', 'show', id, '--json'))).toMatchObject({ state: 'dead-lettered', dead_letter: true });
    const lead = JSON.parse(await ok('--team', 'dl', 'inbox', 'team-lead', '--json')) as { messages: Array<{ entry: { from: string; dead_letter?: string } }> };
    expect(lead.messages.filter((m) => m.entry.from === 'system').map((m) => m.entry.dead_letter)).toEqual([id]);
    await ok('--team', 'dl', 'dead-letter', 'retry', id, '--to', 'team-lead');
    expect((await mailroom('--team', 'dl', 'dead-letter', 'retry', id, '--to', 'team-lead')).code).toBe(3);
    const after = JSON.parse(await ok('--team', 'dl', 'inbox', 'team-lead', '--json')) as { messages: Array<{ entry: { text: string } }> };
    expect(after.messages.filter((m) => m.entry.text === 'for dan')).toHaveLength(1);
    expect(await ok('--team', 'dl', 'dead-letter', 'list')).toBe('No dead letters.\n');
  });

  it('creates a team, spawns, sends, reads the inbox, adds, claims and lists tasks', async () => {
    await ok('team', 'create', 'demo');
    await ok('--team', 'demo', 'team', 'spawn', 'alice', '--prompt', 'Write the parser');
    await ok('--team', 'demo', 'team', 'send', 'alice', 'hello alice');
    const inbox = JSON.parse(await ok('--team', 'demo', 'inbox', 'alice', '--json')) as { messages: Array<{ entry: { text: string; read: boolean } }> };
    expect(inbox.messages.map((m) => [m.entry.text, m.entry.read])).toEqual([
      ['Write the parser', false],
      ['hello alice', false],
    ]);
    expect(await ok('--team', 'demo', 'task', 'add', 'First task')).toContain('#1');
    expect(await ok('--team', 'demo', 'task', 'claim', '1', '--as', 'alice')).toContain('alice claimed task #1');
    const tasks = JSON.parse(await ok('--team', 'demo', 'task', 'list', '--json')) as Array<{ task: { id: string; owner?: string; status: string } }>;
    expect(tasks.map(({ task: t }) => [t.id, t.owner, t.status])).toEqual([['1', 'alice', 'in_progress']]);
    const shown = JSON.parse(await ok('--team', 'demo', 'team', 'show', '--json')) as { members: Array<{ name: string; runtime?: string }> };
    expect(shown.members.map((m) => [m.name, m.runtime])).toEqual([
      ['team-lead', undefined],
      ['alice', 'in-process'],
    ]);
    // The team lives in Redis: the root holds no Claude Code team files.
    expect((await readdir(host.path)).filter((d) => d === 'teams' || d === 'tasks')).toEqual([]);
    const stores = await openStores({ kind: 'redis', url: server.url, hostRoot: host.path });
    try {
      expect((await stores.team.readMemberRecords('demo')).map((r) => [r.name, r.runtime, r.prompt])).toEqual([['alice', 'in-process', 'Write the parser']]);
    } finally {
      await stores.close();
    }
  });

  // Session 14 (break test): the reading verbs' sweep ran a read-only script that answers "ok" for a
  // missing team; the store then took the team for one it had seen, and its next TEAM_NOT_FOUND
  // became TEAM_LOST (exit 7, "keys were evicted or flushed") for a mere typo.
  it.each([[['team', 'show', 'nope']], [['log', 'nope']], [['log', 'nope', '--actor', 'x']], [['task', 'list', '--team', 'nope']], [['inbox', 'team-lead', '--team', 'nope']]])(
    'a mistyped team is TEAM_NOT_FOUND (exit 3), not TEAM_LOST: %j',
    async (args) => {
      await mailroom('team', 'create', 'real-one'); // a team in the store (TEAM_EXISTS after the first case)
      const run = await mailroom(...args);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain('TEAM_NOT_FOUND: Team "nope" not found in the Redis store');
      expect(run.stderr).not.toContain('TEAM_LOST');
    },
  );

  it('says STORE_UNAVAILABLE (exit 6), naming the URL without its password, when the server is unreachable', async () => {
    const run = await runCli(['--store', 'redis://user:secret@127.0.0.1:1', '--root', host.path, 'team', 'list'], cleanEnv());
    expect(run.code, run.stderr).toBe(6);
    expect(run.stderr).toContain('STORE_UNAVAILABLE');
    expect(run.stderr).toContain('127.0.0.1:1');
    expect(run.stderr).not.toContain('secret');
  });
});
