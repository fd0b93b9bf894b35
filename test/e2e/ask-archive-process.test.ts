/**
 * Correlation survives archiving (issue 21 item 7) with a process teammate: `alice` is a real
 * `mailroom` process (`team spawn --backend process`) driven by the scripted model, answering each
 * question with a plain SendMessage to the lead (no in_reply_to: the runtime links it to the
 * lead's open ask). Her inbox is archived after every 200 read entries; every one of the 200 (and
 * 400) asks must get its own reply back, linked by in_reply_to. Files and a real redis-server. The
 * asks go one at a time, each once alice's previous turn ended, so each turn carries one question
 * and the script's turn 2i answers question i. The in-process teammate's cases (up to 1 000 asks) are test/unit/runtime/ask-archive.test.ts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { askMany } from '../helpers/ask-many.js';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let redis: RedisServer;
const dirs: TempDir[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  for (const d of dirs) await d.cleanup();
});

/** Turn 2i answers question i; turn 2i+1 ends the turn after the tool result. */
function script(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: `answer ${i}` } }] }, { text: '' }]).flat();
}

const cases: Array<[string, number]> = [
  ['files', 200],
  ['redis', 200],
  ['redis', 400],
];

describe('ask and reply stay linked across a process teammate\'s inbox archiving', () => {
  it.each(cases)('%s: links all of %i asks to their replies', async (backend, n) => {
    const dir = await makeTempDir('mailroom-ask-archive-process-');
    dirs.push(dir);
    const team = `p-${backend}-${n}`;
    const args = backend === 'files' ? ['--root', dir.path] : ['--store', redis.url, '--root', dir.path];
    const stores: Stores = await (backend === 'files' ? openStores({ kind: 'fs', root: dir.path }) : openStores({ kind: 'redis', url: redis.url, hostRoot: dir.path }));
    const cli = (...rest: string[]) => runCli([...args, '--team', team, ...rest], cleanEnv());
    try {
      expect((await runCli([...args, 'team', 'create', team], cleanEnv())).code).toBe(0);
      const file = join(dir.path, 'alice.json');
      await writeFile(file, JSON.stringify(script(n)));
      const spawned = await cli('team', 'spawn', 'alice', '--backend', 'process', '--model', `scripted:${file}`);
      expect(spawned.code, spawned.stderr).toBe(0);
      await until(async () => (await stores.team.readClaims(team)).some((c) => c.member === 'alice'), 60_000, 'alice to start');
      // A scripted model cannot read its question: turn 2i answers question i only if each question
      // starts a turn of its own, so the next ask waits for alice's turn to end (her claim idle).
      const idle = () => until(async () => (await stores.team.readClaims(team)).some((c) => c.member === 'alice' && c.state === 'idle'), 30_000, 'alice idle');
      const failed = await askMany(stores, team, n, 1, idle);
      expect(failed, `asks without their linked reply: #${failed.join(', #')}`).toEqual([]);
      const history = await stores.team.readInboxHistory(team, 'alice');
      expect(history.archived.length).toBeGreaterThanOrEqual(Math.floor(n / 200) * 190);
    } finally {
      await cli('team', 'stop', 'alice', '--force');
      await stores.close();
    }
  }, 300_000);
});
