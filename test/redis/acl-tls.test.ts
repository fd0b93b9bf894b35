/**
 * Issue 22 item 5, a Redis a team can be fenced into, on real redis-servers: `mailroom store
 * grant` makes an ACL user that runs the team's verbs (send, inbox, task add/claim, log, the
 * watch hints) and is refused NOPERM on another team's keys and the global team list; `--print`
 * changes nothing; `doctor` reports a default user without a password. `rediss://` to a TLS
 * server that requires a client certificate works with MAILROOM_TLS_CA/CERT/KEY, and a rediss://
 * handshake to a plain server fails fast with STORE_UNAVAILABLE saying so.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GRANTED_COMMANDS } from '../../src/store/redis/acl.js';
import { openStores } from '../../src/store/open.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { freePort, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const LUA = fileURLToPath(new URL('../../src/store/redis/lua/', import.meta.url));

it('the granted commands cover every command the Lua scripts call', async () => {
  const called = new Set<string>();
  for (const file of await readdir(LUA)) {
    // R('CMD', …) directly, or through a helper that takes the command first (write_pairs('HSET', …)).
    for (const m of (await readFile(join(LUA, file), 'utf8')).matchAll(/\b(?:R|write_pairs)\('([A-Z]+)'(?:,\s*'([A-Z]+)')?/g)) called.add(m[1] === 'XINFO' ? `xinfo|${m[2]!.toLowerCase()}` : m[1]!.toLowerCase());
  }
  expect([...called].filter((c) => !GRANTED_COMMANDS.includes(c))).toEqual([]);
});

describe('store grant', () => {
  let server: RedisServer;
  let host: TempDir;
  beforeAll(async () => {
    server = await startRedis();
    host = await makeTempDir('mailroom-acl-');
  });
  afterAll(async () => {
    await server?.stop();
    await host?.cleanup();
  });
  const as = (url: string, ...args: string[]): Promise<CliRun> => runCli(['--store', url, '--root', host.path, ...args], cleanEnv());
  const ok = async (url: string, ...args: string[]): Promise<string> => {
    const run = await as(url, ...args);
    expect(run.code, `mailroom ${args.join(' ')}: ${run.stderr}`).toBe(0);
    return run.stdout;
  };

  it('fences a user into one team: its verbs work, another team\'s keys and the team list are NOPERM; doctor flags the open default user', async () => {
    await ok(server.url, 'team', 'create', 'red');
    await ok(server.url, 'team', 'create', 'blue');
    await ok(server.url, '--team', 'red', 'team', 'spawn', 'alice');
    await ok(server.url, '--team', 'blue', 'team', 'spawn', 'zed');
    await ok(server.url, '--team', 'blue', 'team', 'send', 'zed', 'blue secret');

    const printed = JSON.parse(await ok(server.url, '--team', 'red', 'store', 'grant', '--member', 'alice', '--print', '--json')) as { user: string; url: string; command: string; applied: boolean };
    expect(printed).toMatchObject({ user: 'mailroom-red-alice', applied: false });
    expect(printed.command).toMatch(/^ACL SETUSER mailroom-red-alice reset on '?>/);
    const unknownUser = await as(printed.url, '--team', 'red', 'inbox', 'alice'); // not created: WRONGPASS, the store is unusable
    expect(unknownUser.code).toBe(2);
    expect(unknownUser.stderr).toContain('STORE_REFUSED');

    const grant = JSON.parse(await ok(server.url, '--team', 'red', 'store', 'grant', '--json')) as { user: string; url: string; applied: boolean };
    expect(grant).toMatchObject({ user: 'mailroom-red', applied: true });
    expect(grant.url).toMatch(/^redis:\/\/mailroom-red:[\w-]{20,}@127\.0\.0\.1:\d+$/);

    await ok(grant.url, '--team', 'red', 'team', 'send', 'alice', 'hello');
    await ok(grant.url, '--team', 'red', 'task', 'add', 'Parse');
    await ok(grant.url, '--team', 'red', 'task', 'claim', '1', '--as', 'alice');
    expect(await ok(grant.url, '--team', 'red', 'inbox', 'alice')).toContain('hello');
    expect(await ok(grant.url, '--team', 'red', 'log')).toContain('Parse');

    // Watch hints (SUBSCRIBE on the team's channel) reach a granted client.
    const stores = await openStores({ kind: 'redis', url: grant.url, hostRoot: host.path });
    try {
      const hints: string[] = [];
      const handle = await stores.team.watch('red', (h) => hints.push(JSON.stringify(h)));
      await ok(grant.url, '--team', 'red', 'team', 'send', 'alice', 'again');
      await expect.poll(() => hints.some((h) => h.includes('alice')), { timeout: 30_000 }).toBe(true);
      await handle.close();
      await expect(stores.team.readInbox('blue', 'zed')).rejects.toThrow(/NOPERM/);
    } finally {
      await stores.close();
    }
    const blue = await as(grant.url, '--team', 'blue', 'inbox', 'zed');
    expect(blue.code).not.toBe(0);
    expect(blue.stderr).toContain('NOPERM');
    expect(blue.stderr).not.toContain('blue secret');

    const raw = createClient({ url: grant.url });
    await raw.connect();
    try {
      await expect(raw.get('mr:{blue}:config')).rejects.toThrow(/NOPERM/);
      await expect(raw.sMembers('mr:teams')).rejects.toThrow(/NOPERM/);
      await expect(raw.sendCommand(['CONFIG', 'SET', 'appendonly', 'no'])).rejects.toThrow(/NOPERM/);
      await expect(raw.sendCommand(['ACL', 'SETUSER', 'mallory', 'on', '>x', '~*', '+@all'])).rejects.toThrow(/NOPERM/);
    } finally {
      await raw.close();
    }

    const doctor = await as(server.url, 'doctor', '--json');
    expect(doctor.stdout + doctor.stderr).toContain('default user');
    expect(doctor.code).not.toBe(0);
  });

  it('rediss:// to a plain server fails fast: STORE_UNAVAILABLE saying it may not speak TLS', async () => {
    const run = await as(`rediss://127.0.0.1:${server.port}`, 'team', 'list', '--json');
    expect(run.code).toBe(6);
    const error = (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toContain('may not speak TLS');
  });
});

describe('rediss:// with a client certificate', () => {
  let server: RedisServer;
  let certs: TempDir;
  let host: TempDir;
  beforeAll(async () => {
    certs = await makeTempDir('mailroom-tls-');
    host = await makeTempDir('mailroom-tls-host-');
    makeCerts(certs.path);
    const port = await freePort();
    const file = (f: string) => join(certs.path, f);
    server = await startRedis({ args: ['--port', '0', '--tls-port', String(port), '--tls-cert-file', file('server.crt'), '--tls-key-file', file('server.key'), '--tls-ca-cert-file', file('ca.crt'), '--tls-auth-clients', 'yes'] });
    // The helper picked its own port for --port; the TLS one is ours.
    (server as { port: number }).port = port;
  });
  afterAll(async () => {
    await server?.stop();
    await certs?.cleanup();
    await host?.cleanup();
  });
  const tlsEnv = (withClient: boolean) =>
    cleanEnv({ MAILROOM_TLS_CA: join(certs.path, 'ca.crt'), ...(withClient ? { MAILROOM_TLS_CERT: join(certs.path, 'client.crt'), MAILROOM_TLS_KEY: join(certs.path, 'client.key') } : {}) });
  const url = () => `rediss://127.0.0.1:${server.port}`;

  it('works with the CA and a client certificate; without the certificate the server refuses the handshake', async () => {
    const create = await runCli(['--store', url(), '--root', host.path, 'team', 'create', 'sec'], tlsEnv(true));
    expect(create.code, create.stderr).toBe(0);
    const send = await runCli(['--store', url(), '--root', host.path, '--team', 'sec', 'team', 'send', 'team-lead', 'over TLS'], tlsEnv(true));
    expect(send.code, send.stderr).toBe(0);
    const inbox = await runCli(['--store', url(), '--root', host.path, '--team', 'sec', 'inbox'], tlsEnv(true));
    expect(inbox.stdout).toContain('over TLS');

    const bare = await runCli(['--store', url(), '--root', host.path, 'team', 'list', '--json'], tlsEnv(false));
    expect(bare.code).toBe(6);
    expect((JSON.parse(bare.stderr) as { error: { code: string } }).error.code).toBe('STORE_UNAVAILABLE');
    const noCa = await runCli(['--store', url(), '--root', host.path, 'team', 'list', '--json'], cleanEnv({ MAILROOM_TLS_CERT: join(certs.path, 'client.crt'), MAILROOM_TLS_KEY: join(certs.path, 'client.key') }));
    expect(noCa.code).toBe(6);
    expect((JSON.parse(noCa.stderr) as { error: { message: string } }).error.message).toContain('MAILROOM_TLS_CA');
  });
});

/** A CA, a server certificate for 127.0.0.1 and a client certificate, made with openssl. */
function makeCerts(dir: string): void {
  const run = (...args: string[]) => {
    try {
      execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    } catch (err) {
      throw new Error(`openssl ${args[0]} failed (install it: apt-get install openssl): ${String((err as { stderr?: Buffer }).stderr ?? err)}`);
    }
  };
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=mailroom test CA');
  for (const [name, ext] of [['server', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], ['client', 'extendedKeyUsage=clientAuth']] as const) {
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=mailroom ${name}`);
    writeFileSync(join(dir, `${name}.ext`), `${ext}\n`);
    run('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-extfile', `${name}.ext`);
  }
}
