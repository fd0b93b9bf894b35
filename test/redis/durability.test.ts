/**
 * Durability is checked, not assumed (issue 21 item 6), with real redis-servers configured each
 * way: `doctor` reports `appendonly no` and an eviction policy other than `noeviction` as problems
 * (exit 7) saying what each costs, `appendfsync everysec` as info with its bound (up to 1 s of
 * acknowledged mail on a power loss), AOF with `appendfsync always` and noeviction as nothing;
 * opening the store on a volatile server warns once per process on stderr — a one-shot command at
 * most once an hour per server and machine (a user running 20 commands reads it once), a long-lived
 * process (watch, agent, …) at every start; a server is its host, port and database, whatever the
 * URL's user name and password — and `--allow-volatile` / `$MAILROOM_ALLOW_VOLATILE` silences it.
 */
import { spawnSync } from 'node:child_process';
import { readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRedisStores } from '../../src/store/redis/index.js';
import { FsHostStore } from '../../src/store/fs/host-store.js';
import { runCli } from '../helpers/cli.js';
import { startCli } from '../helpers/line-child.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A server with a password for its default user, so doctor's only findings are the durability settings under test. */
async function server(options: Parameters<typeof startRedis>[0]): Promise<RedisServer> {
  const s = await startRedis({ password: 'durability-test', ...options });
  cleanups.push(() => s.stop());
  return s;
}

let host: TempDir | undefined;
async function cli(url: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  if (!host) {
    host = await makeTempDir('mailroom-durability-');
    const h = host;
    cleanups.push(() => h.cleanup());
  }
  return runCli(['--store', url, '--root', host.path, ...args], cleanEnv({ MAILROOM_ALLOW_VOLATILE: '', ...env }));
}

type Report = { findings: Array<{ kind: string; severity: string; message: string }>; problems: number };
const settingsOf = (r: Report) => r.findings.filter((f) => f.kind === 'server-setting').map((f) => ({ severity: f.severity, message: f.message }));

describe('doctor on Redis servers configured each way', () => {
  it('appendonly no: a problem (exit 7) saying a restart loses acknowledged mail', async () => {
    const s = await server({});
    const run = await cli(s.url, ['doctor', '--json']);
    expect(run.code, run.stderr).toBe(7);
    const found = settingsOf(JSON.parse(run.stdout) as Report);
    expect(found).toEqual([{ severity: 'problem', message: expect.stringContaining('appendonly is no') }]);
    expect(found[0]!.message).toContain('acknowledged mail');
    expect(found[0]!.message).toContain('appendonly yes');
  });

  it('an eviction policy (allkeys-lru): a problem (exit 7) saying whole teams can vanish', async () => {
    const s = await server({ aof: true, args: ['--maxmemory-policy', 'allkeys-lru'] });
    const run = await cli(s.url, ['doctor', '--json']);
    expect(run.code, run.stderr).toBe(7);
    const found = settingsOf(JSON.parse(run.stdout) as Report);
    expect(found).toEqual([{ severity: 'problem', message: expect.stringContaining('maxmemory-policy is allkeys-lru') }]);
    expect(found[0]!.message).toContain('noeviction');
  });

  it('appendfsync everysec: info with its bound, up to 1 s of acknowledged mail on a power loss (exit 0)', async () => {
    const s = await server({ args: ['--appendonly', 'yes', '--appendfsync', 'everysec'] });
    const run = await cli(s.url, ['doctor', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const found = settingsOf(JSON.parse(run.stdout) as Report);
    expect(found).toEqual([{ severity: 'info', message: expect.stringContaining('appendfsync is everysec') }]);
    expect(found[0]!.message).toContain('up to 1 s of acknowledged mail');
  });

  it('AOF with appendfsync always and noeviction: nothing to report, no warning', async () => {
    const s = await server({ aof: true });
    const run = await cli(s.url, ['doctor', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(settingsOf(JSON.parse(run.stdout) as Report)).toEqual([]);
    expect(run.stderr).toBe('');
  });
});

describe('opening a team on a volatile server', () => {
  it('warns once on stderr per process; --allow-volatile and $MAILROOM_ALLOW_VOLATILE silence it', async () => {
    const s = await server({});
    expect((await cli(s.url, ['team', 'create', 'v', '--allow-volatile'])).code).toBe(0);
    const warned = await cli(s.url, ['--team', 'v', 'team', 'send', 'team-lead', 'hi']);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr.match(/warning: the Redis store at .* has appendonly no/g)).toHaveLength(1);
    expect(warned.stderr).toContain('--allow-volatile');
    const flag = await cli(s.url, ['--team', 'v', 'team', 'send', 'team-lead', 'hi', '--allow-volatile']);
    expect(flag.stderr).toBe('');
    const env = await cli(s.url, ['--team', 'v', 'team', 'send', 'team-lead', 'hi'], { MAILROOM_ALLOW_VOLATILE: '1' });
    expect(env.stderr).toBe('');
  });

  it('one-shot commands warn once an hour per server on this machine; a long-lived process at each start', { timeout: 120_000 }, async () => {
    const s = await server({});
    const root = await makeTempDir('mailroom-durability-hourly-');
    cleanups.push(() => root.cleanup());
    const run = (args: string[]) => runCli(['--store', s.url, '--root', root.path, ...args], cleanEnv({ MAILROOM_ALLOW_VOLATILE: '' }));
    const warning = /warning: the Redis store at .* has appendonly no/g;
    const first = await run(['team', 'create', 'h']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr.match(warning)).toHaveLength(1);
    expect(first.stderr).toContain('at most once an hour');
    for (const args of [['--team', 'h', 'team', 'send', 'team-lead', 'hi'], ['--team', 'h', 'team', 'show'], ['--team', 'h', 'task', 'add', 'Write the parser'], ['--team', 'h', 'inbox']]) {
      const later = await run(args);
      expect(later.code, later.stderr).toBe(0);
      expect(later.stderr, args.join(' ')).toBe('');
    }
    // doctor still reports it (exit 7), and a long-lived process warns at its start.
    expect((await run(['doctor'])).code).toBe(7);
    const watch = startCli(['--store', s.url, '--root', root.path, '--team', 'h', 'watch', '--json'], cleanEnv({ MAILROOM_ALLOW_VOLATILE: '' }));
    try {
      await watch.waitForLine((l) => l.includes('"ready"'));
      await watch.stop();
      expect(watch.stderr()).toMatch(warning);
    } finally {
      await watch.stop();
    }
    // An hour later (the note backdated), the next one-shot command warns again.
    const notes = join(root.path, 'mailroom', 'notes');
    for (const f of await readdir(notes)) await utimes(join(notes, f), new Date(Date.now() - 61 * 60_000), new Date(Date.now() - 61 * 60_000));
    const again = await run(['--team', 'h', 'team', 'show']);
    expect(again.stderr.match(warning)).toHaveLength(1);
  });

  it('a URL that differs only by its user name or password is the same server: warned once, no password printed (new-user trial)', async () => {
    const s = await server({});
    const added = spawnSync('redis-cli', ['-p', String(s.port), '--no-auth-warning', '-a', 'durability-test', 'ACL', 'SETUSER', 'default', '>second-secret'], { encoding: 'utf8' });
    expect(added.stdout.trim(), added.stderr).toBe('OK');
    const root = await makeTempDir('mailroom-durability-password-');
    cleanups.push(() => root.cleanup());
    const urls = [s.url, `redis://default:second-secret@127.0.0.1:${s.port}`, `redis://:second-secret@127.0.0.1:${s.port}/0`];
    const warning = /warning: the Redis store at .* has appendonly no/g;
    const runs = [];
    for (const [i, url] of urls.entries()) runs.push(await runCli(['--store', url, '--root', root.path, ...(i === 0 ? ['team', 'create', 'p'] : ['--team', 'p', 'team', 'show'])], cleanEnv({ MAILROOM_ALLOW_VOLATILE: '' })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(runs.map((r) => r.stderr.match(warning)?.length ?? 0)).toEqual([1, 0, 0]);
    for (const r of runs) expect(r.stderr).not.toMatch(/durability-test|second-secret/);
    // One process opening all three (a library, a long-lived command): once.
    const warnings: string[] = [];
    for (const url of urls) {
      const stores = await openRedisStores({ kind: 'redis', url, hostRoot: '/nonexistent' }, { allowVolatile: false, onWarning: (m) => warnings.push(m) }, new FsHostStore('/nonexistent'));
      await stores.close();
    }
    expect(warnings.filter((w) => w.includes('appendonly no'))).toHaveLength(1);
    expect(warnings.join('\n')).not.toMatch(/durability-test|second-secret/);
  });

  it('a library process opening the store several times is warned once', async () => {
    const s = await server({ aof: true, args: ['--maxmemory-policy', 'volatile-lru'] });
    const warnings: string[] = [];
    for (let i = 0; i < 3; i++) {
      const stores = await openRedisStores({ kind: 'redis', url: s.url, hostRoot: '/nonexistent' }, { allowVolatile: false, onWarning: (m) => warnings.push(m) }, new FsHostStore('/nonexistent'));
      await stores.close();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('maxmemory-policy volatile-lru');
  });
});
