/**
 * Issue 23 item 3: a member re-spawned under a departed member's name saw the mail it never read
 * marked read, and `dead-letter retry` then added a second copy. Now the name coming back gets its
 * dead letters unread again in its inbox (one copy, the original msg_id), the dead letters are gone,
 * and a retry re-sends nothing twice — on both backends, through the real CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let server: RedisServer;
let tmp: TempDir;
beforeAll(async () => {
  server = await startRedis();
  tmp = await makeTempDir('mailroom-dl-rejoin-');
});
afterAll(async () => {
  await server?.stop();
  await tmp?.cleanup();
});

interface Inbox {
  messages: Array<{ entry: { text: string; read: boolean; msg_id?: string } }>;
}

describe.each(['files', 'redis'] as const)('a departed name comes back (%s)', (backend) => {
  const store = () => (backend === 'redis' ? ['--store', server.url, '--root', `${tmp.path}/host-redis`] : ['--root', `${tmp.path}/files`]);
  const mailroom = (...args: string[]) => runCli([...store(), '--team', 't', ...args], cleanEnv());
  const ok = async (...args: string[]) => {
    const run = await mailroom(...args);
    expect(run.code, `mailroom ${args.join(' ')}: ${run.stderr}`).toBe(0);
    return run.stdout;
  };

  it('gets its unread mail back unread, once; retry adds no second copy', { timeout: 180_000 }, async () => {
    await ok('team', 'create', 't');
    await ok('team', 'spawn', 'dan');
    const sent = JSON.parse(await ok('team', 'send', 'dan', 'review the parser', '--json')) as { entry: { msg_id: string } };
    expect(await ok('team', 'stop', 'dan')).toContain('1 unread message dead-lettered');
    expect(JSON.parse(await ok('dead-letter', 'list', '--json'))).toHaveLength(1);

    await ok('team', 'spawn', 'dan');
    const inbox = JSON.parse(await ok('inbox', 'dan', '--json')) as Inbox;
    expect(inbox.messages.map((m) => [m.entry.text, m.entry.read, m.entry.msg_id])).toEqual([['review the parser', false, sent.entry.msg_id]]);
    expect(await ok('dead-letter', 'list')).toBe('No dead letters.\n');
    expect(await ok('dead-letter', 'retry', '--all')).toBe('No dead letters.\n');
    const after = JSON.parse(await ok('inbox', 'dan', '--json')) as Inbox;
    expect(after.messages.filter((m) => m.entry.text === 'review the parser')).toHaveLength(1);
    const shown = JSON.parse(await ok('message', 'show', sent.entry.msg_id, '--json')) as { state: string };
    expect(shown.state).not.toBe('read');
  });
});
