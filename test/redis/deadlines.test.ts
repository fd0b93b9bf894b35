/**
 * Deadlines (issue 21 item 4), with a real redis-server: a server that accepts connections but
 * does not answer (SIGSTOP) makes the CLI exit 6 STORE_UNAVAILABLE naming the store (password
 * hidden) after `--store-timeout` / `$MAILROOM_STORE_TIMEOUT` / the 10 s default, never a hang; a
 * long-lived store's call fails the same way and the store works again once the server does; a
 * send retried with its idempotency key after a deadline is stored once; a full server
 * (maxmemory, noeviction) is STORE_FULL (exit 7) with the fix; a team whose keys were flushed
 * under a process that had opened it is TEAM_LOST, a team deleted by `team delete` stays
 * TEAM_NOT_FOUND.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { exitCodeFor } from '../../src/errors.js';
import type { TeamConfig } from '../../src/protocol/config.js';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { openRedisTeamStore, type RedisTeamStore } from '../../src/store/redis/index.js';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { thrownAsync } from '../helpers/thrown.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(options: Parameters<typeof startRedis>[0] = {}): Promise<RedisServer> {
  const s = await startRedis(options);
  cleanups.push(async () => {
    s.proc().kill('SIGCONT');
    await s.stop();
  });
  return s;
}

async function open(url: string, timeoutMs?: number): Promise<RedisTeamStore> {
  const store = await openRedisTeamStore({ kind: 'redis', url, hostRoot: '/nonexistent' }, timeoutMs === undefined ? {} : { timeoutMs });
  cleanups.push(() => store.close());
  return store;
}

async function makeTeam(store: RedisTeamStore, name: string, members: string[] = []): Promise<void> {
  const lead = { agentId: `team-lead@${name}`, name: 'team-lead' };
  await store.createTeam({ name, createdAt: 1, leadAgentId: lead.agentId, members: [lead] } as TeamConfig);
  for (const m of members) await store.addMember(name, { agentId: `${m}@${name}`, name: m });
}

async function cli(url: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const host = await makeTempDir('mailroom-deadline-host-');
  cleanups.push(() => host.cleanup());
  return runCli(['--store', url, '--root', host.path, ...args], cleanEnv(env));
}

function paused(s: RedisServer): void {
  s.proc().kill('SIGSTOP');
}

describe('a Redis that accepts connections but does not answer (SIGSTOP)', () => {
  it('team list exits 6 STORE_UNAVAILABLE after --store-timeout, naming the store without its password', async () => {
    const s = await server({ password: 's3cret' });
    paused(s);
    const run = await cli(s.url, ['--store-timeout', '1s', 'team', 'list']);
    expect(run.code, run.stderr).toBe(6);
    expect(run.stderr).toContain('STORE_UNAVAILABLE');
    expect(run.stderr).toContain(`127.0.0.1:${s.port}`);
    expect(run.stderr).toContain('did not answer within 1 s');
    expect(run.stderr).not.toContain('s3cret');
  });

  it('$MAILROOM_STORE_TIMEOUT sets the deadline; a bad value is refused naming it', async () => {
    const s = await server();
    paused(s);
    const run = await cli(s.url, ['team', 'list'], { MAILROOM_STORE_TIMEOUT: '800ms' });
    expect(run.code, run.stderr).toBe(6);
    expect(run.stderr).toContain('did not answer within 0.8 s');
    const bad = await cli(s.url, ['team', 'list'], { MAILROOM_STORE_TIMEOUT: 'soon' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('$MAILROOM_STORE_TIMEOUT "soon" is not a store deadline');
  });

  it('without any setting, the 10 s default ends the command (exit 6), it does not hang', async () => {
    const s = await server();
    paused(s);
    const run = await cli(s.url, ['team', 'list'], { MAILROOM_STORE_TIMEOUT: '' });
    expect(run.code, run.stderr).toBe(6);
    expect(run.stderr).toContain('did not answer within 10 s');
  }, 60_000);

  it('a long-lived store: the call fails at its deadline, and works again once the server answers', async () => {
    const s = await server();
    const store = await open(s.url, 500);
    await makeTeam(store, 't', ['alice']);
    paused(s);
    const err = await thrownAsync(() => store.readConfig('t'));
    expect(err.code).toBe('STORE_UNAVAILABLE');
    expect(err.details.reason).toBe('deadline');
    expect(exitCodeFor(err)).toBe(6);
    s.proc().kill('SIGCONT');
    expect((await store.readConfig('t')).members.map((m) => m.name)).toEqual(['team-lead', 'alice']);
  });

  it('a send retried with its idempotency key after a deadline is stored once', async () => {
    const s = await server();
    const store = await open(s.url, 500);
    await makeTeam(store, 't', ['alice']);
    const entry = makeInboxEntry({ from: 'team-lead', text: 'once', timestamp: new Date().toISOString(), msgId: 'm-once' });
    paused(s);
    const first = await thrownAsync(() => store.appendMessages('t', [{ to: 'alice', entry }], { idempotencyKey: 'k-1' }));
    expect(first.code).toBe('STORE_UNAVAILABLE');
    s.proc().kill('SIGCONT');
    const retried = await store.appendMessages('t', [{ to: 'alice', entry }], { idempotencyKey: 'k-1' });
    const inbox = await store.readInbox('t', 'alice');
    expect(inbox.map((e) => e.text)).toEqual(['once']);
    expect(retried.value.messages.map((m) => m.entry.text)).toEqual(['once']);
  });
});

describe('a full Redis (maxmemory reached, noeviction)', () => {
  it('a send is STORE_FULL (exit 7) saying how to make room; nothing half-written', async () => {
    const s = await server();
    const ok = await cli(s.url, ['team', 'create', 'full']);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await cli(s.url, ['--team', 'full', 'team', 'spawn', 'alice'])).code).toBe(0);
    const raw = createClient({ url: s.url });
    await raw.connect();
    cleanups.push(async () => void (await raw.close()));
    const used = () => raw.info('memory').then((t) => Number(/used_memory:(\d+)/.exec(String(t))![1]));
    const filler = 'x'.repeat(10_000);
    for (let i = 0; i < 50; i++) await raw.set(`filler:${i}`, filler);
    // Well below what it uses now (its use moves by 100 kB as buffers come and go): every write
    // is refused until memory is freed or the limit raised.
    await raw.configSet({ maxmemory: String(Math.floor((await used()) / 2)), 'maxmemory-policy': 'noeviction' });
    expect(String(await raw.set('probe', 'x').catch((err: unknown) => err))).toContain('OOM');
    const run = await cli(s.url, ['--team', 'full', 'team', 'send', 'alice', 'hello']);
    expect(run.code, run.stderr).toBe(7);
    expect(run.stderr).toContain('STORE_FULL');
    expect(run.stderr).toContain('maxmemory');
    await raw.configSet('maxmemory', '0');
    const inbox = await cli(s.url, ['--team', 'full', 'inbox', 'alice', '--json']);
    expect(JSON.parse(inbox.stdout).messages).toEqual([]);
  });
});

describe('lost team keys', () => {
  it('FLUSHALL under a process that opened the team: TEAM_LOST (exit 7), not TEAM_NOT_FOUND', async () => {
    const s = await server();
    const store = await open(s.url);
    await makeTeam(store, 't', ['alice']);
    await store.readConfig('t');
    const raw = createClient({ url: s.url });
    await raw.connect();
    await raw.flushAll();
    await raw.close();
    const err = await thrownAsync(() => store.appendMessages('t', [{ to: 'alice', entry: makeInboxEntry({ from: 'team-lead', text: 'hi', timestamp: new Date().toISOString(), msgId: 'm-hi' }) }]));
    expect(err.code).toBe('TEAM_LOST');
    expect(exitCodeFor(err)).toBe(7);
    expect(err.message).toContain('mailroom doctor');
    expect((await thrownAsync(() => store.readConfig('t'))).code).toBe('TEAM_LOST');
  });

  it('a team deleted by `team delete` (another store) stays TEAM_NOT_FOUND', async () => {
    const s = await server();
    const store = await open(s.url);
    const other = await open(s.url);
    await makeTeam(store, 't', ['alice']);
    await other.deleteTeam('t');
    expect((await thrownAsync(() => store.readConfig('t'))).code).toBe('TEAM_NOT_FOUND');
  });

  it('a fresh process that never saw the team: TEAM_NOT_FOUND', async () => {
    const s = await server();
    const store = await open(s.url);
    expect((await thrownAsync(() => store.readConfig('never'))).code).toBe('TEAM_NOT_FOUND');
  });
});
