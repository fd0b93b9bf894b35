/**
 * A Redis server that refuses the store URL (issue 23) says what is wrong with the URL, not
 * "Cannot reach … Start Redis": a database past the server's `databases`, a wrong password or
 * user, a missing password are STORE_REFUSED (exit 2) naming what the server said and the fix.
 * A password given for the default user of a server that checks none is accepted with a warning
 * (once per command) that says so. A `rediss://` URL aimed at a plain server ends on a bound that
 * follows the TCP connect's round trip, saying the server may not speak TLS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let open: RedisServer;
let locked: RedisServer;
let host: TempDir;
beforeAll(async () => {
  [open, locked, host] = await Promise.all([startRedis(), startRedis({ password: 's3cret' }), makeTempDir('mailroom-refused-')]);
});
afterAll(async () => {
  await Promise.all([open?.stop(), locked?.stop(), host?.cleanup()]);
});

const at = (url: string, ...args: string[]): Promise<CliRun> => runCli(['--store', url, '--root', host.path, '--allow-volatile', ...args], cleanEnv());
const refusal = (run: CliRun) => {
  expect(run.code, run.stderr).toBe(2);
  const error = (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error;
  expect(error.code).toBe('STORE_REFUSED');
  expect(error.message).not.toContain('Start Redis');
  return error.message;
};

describe('a server that refuses the URL', () => {
  it('database 99: names the database and the databases setting', async () => {
    const message = refusal(await at(`redis://127.0.0.1:${open.port}/99`, 'team', 'list', '--json'));
    expect(message).toContain('DB index is out of range');
    expect(message).toContain('no database 99');
    expect(message).toContain('`databases`');
  });

  it('a wrong password, an unknown user, no password: says which and where to fix it, never printing the password', async () => {
    const wrong = refusal(await at(`redis://:nope@127.0.0.1:${locked.port}`, 'team', 'list', '--json'));
    expect(wrong).toContain('WRONGPASS');
    expect(wrong).toContain('user name or password');
    expect(wrong).not.toContain('nope');
    expect(refusal(await at(`redis://ghost:pw@127.0.0.1:${open.port}`, 'team', 'list', '--json'))).toContain('user name or password');
    const none = refusal(await at(`redis://127.0.0.1:${locked.port}`, 'team', 'list', '--json'));
    expect(none).toContain('needs a password');
    const right = await at(`redis://:s3cret@127.0.0.1:${locked.port}`, 'team', 'list');
    expect(right.code, right.stderr).toBe(0);
    expect(right.stderr).toBe('');
  });
});

it('a password for a server that checks none works, with one warning that says so', async () => {
  const run = await at(`redis://:pw-xyz@127.0.0.1:${open.port}`, 'team', 'create', 'pw');
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr.match(/checks no password/g)).toHaveLength(1);
  expect(run.stderr).toContain('requirepass');
  expect(run.stderr).not.toContain('pw-xyz');
  expect((await at(`redis://127.0.0.1:${open.port}`, 'team', 'list')).stderr).not.toContain('checks no password');
});

it('rediss:// to a plain server: STORE_UNAVAILABLE on the handshake bound, saying it may not speak TLS', async () => {
  const run = await at(`rediss://127.0.0.1:${open.port}`, 'team', 'list', '--json');
  expect(run.code).toBe(6);
  const error = (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error;
  expect(error.code).toBe('STORE_UNAVAILABLE');
  expect(error.message).toMatch(/no answer to the ClientHello within \d+ ms of the TCP connect/);
  expect(error.message).toContain('may not speak TLS');
});
