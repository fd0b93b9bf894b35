/**
 * Issue 23 item 5: the lead's state differed by view — "no mailroom heartbeat" (`team show`),
 * `stopped` (`--json`, MCP), `working` (`watch` on files, after the lead sent a message). A lead no
 * mailroom runtime beats for is `unknown` in every view, on both backends. Real CLI processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startCli } from '../helpers/line-child.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let server: RedisServer;
let tmp: TempDir;
beforeAll(async () => {
  server = await startRedis();
  tmp = await makeTempDir('mailroom-lead-presence-');
});
afterAll(async () => {
  await server?.stop();
  await tmp?.cleanup();
});

describe.each(['files', 'redis'] as const)('the lead without a heartbeat (%s)', (backend) => {
  const scope = () => (backend === 'redis' ? ['--store', server.url, '--root', `${tmp.path}/host`] : ['--root', `${tmp.path}/files`]);
  const ok = async (...args: string[]) => {
    const run = await runCli([...scope(), '--team', 'p', ...args], cleanEnv());
    expect(run.code, `mailroom ${args.join(' ')}: ${run.stderr}`).toBe(0);
    return run.stdout;
  };

  it('is unknown in team show, --json and watch', { timeout: 180_000 }, async () => {
    await ok('team', 'create', 'p');
    await ok('team', 'spawn', 'alice');
    await ok('team', 'send', 'alice', 'start on the parser'); // activity the old watch read as "working"
    expect(await ok('team', 'show')).toMatch(/team-lead\s+lead — no heartbeat: mailroom does not run it/);
    const json = JSON.parse(await ok('team', 'show', '--json')) as { members: Array<{ name: string; presence: { state: string } }> };
    expect(json.members.find((m) => m.name === 'team-lead')?.presence).toEqual({ state: 'unknown' });
    const watch = startCli([...scope(), 'watch', 'p', '--json'], cleanEnv());
    try {
      const ready = JSON.parse(await watch.waitForLine((l) => l.includes('"ready"'))) as { members: Array<{ name: string; state: string }> };
      expect(ready.members.find((m) => m.name === 'team-lead')?.state).toBe('unknown');
    } finally {
      await watch.stop();
    }
  });
});
