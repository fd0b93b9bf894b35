/**
 * Endorsement across machines (issue 22): a signed team's lead on machine A, a teammate spawned
 * on machine B (which does not hold the lead's private key), one real redis-server between them.
 * B's teammate gets a key pair but no endorsement: what it sends fails verification with a reason
 * naming the fix, the lead is sent an `endorsement_request`, and after `team endorse` on A the
 * teammate's next messages verify.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let server: RedisServer;
let dir: TempDir;
beforeAll(async () => {
  server = await startRedis();
  dir = await makeTempDir('mailroom-endorse-');
});
afterAll(async () => {
  await server?.stop();
  await dir?.cleanup();
});

const on = (name: 'a' | 'b') => (...args: string[]) => runCli(['--store', server.url, '--root', join(dir.path, name), '--team', 'demo', ...args], cleanEnv({ MAILROOM_STORE: '' }));
const ok = (name: 'a' | 'b') => async (...args: string[]): Promise<string> => {
  const run = await on(name)(...args);
  expect(run.code, `machine ${name}: mailroom ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run.stdout;
};

it('a teammate spawned on B is withheld until the lead endorses it on A', { timeout: 120_000 }, async () => {
  await ok('a')('team', 'create', 'demo', '--signed');
  await ok('b')('team', 'spawn', 'bob', '--cwd', dir.path);
  await ok('b')('team', 'send', 'team-lead', 'before endorsement', '--as', 'bob');

  const before = await on('a')('log', '--verify');
  expect(before.code).toBe(5);
  expect(before.stdout).toContain('mailroom team endorse bob');

  const inbox = JSON.parse(await ok('a')('inbox', 'team-lead', '--json')) as { messages: { entry: { text: string } }[] };
  expect(inbox.messages.some(({ entry: e }) => e.text.includes('"type":"endorsement_request"') && e.text.includes('"member":"bob"'))).toBe(true);

  const refused = await on('b')('team', 'endorse', 'bob');
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain('KEY_MISSING');

  expect(await ok('a')('team', 'endorse', 'bob')).toContain('bob');
  await ok('b')('team', 'send', 'team-lead', 'after endorsement', '--as', 'bob');
  const after = JSON.parse((await on('a')('log', '--verify', '--json')).stdout) as { failed: { check: string }[]; verified: number };
  expect(after.failed.map((f) => f.check)).toEqual(['unendorsed']);
  expect(after.verified).toBe(1);
});
