/**
 * Issue 11's verbs on the Redis store through the real binary (`--store redis://…`, a real
 * redis-server): `team ask` answered with the library's `reply()` on the same store, the delivery
 * states `message show` reports, `--idempotency-key`, `--to-capability` and `task add --requires`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply } from '../../src/index.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let server: RedisServer;
let host: TempDir;
let stores: Stores;
beforeAll(async () => {
  server = await startRedis();
  host = await makeTempDir('mailroom-redis-ask-');
  stores = await openStores({ kind: 'redis', url: server.url, hostRoot: host.path });
});
afterAll(async () => {
  await stores?.close();
  await server?.stop();
  await host?.cleanup();
});

const mailroom = (...args: string[]) => runCli(['--store', server.url, '--root', host.path, '--team', 'demo', ...args], cleanEnv());

describe('ask, states, keys and capabilities on Redis', () => {
  it('works end to end', async () => {
    expect((await mailroom('team', 'create', 'demo')).code).toBe(0);
    expect((await mailroom('team', 'spawn', 'rita', '--capability', 'review')).code).toBe(0);
    expect((await mailroom('team', 'spawn', 'dan', '--capability', 'csv')).code).toBe(0);
    // rita runs: a runtime holds her reader claim.
    await stores.team.claimReader('demo', 'rita', { kind: 'agent', host: 'test-host', pid: 4242, startedAt: Date.now() });

    const asking = mailroom('team', 'ask', '--to-capability', 'review', 'Is PR 12 good?', '--timeout', '20s', '--json');
    const question = await until(async () => (await stores.team.readInbox('demo', 'rita')).find((e) => e.text === 'Is PR 12 good?'), 15_000, 'the ask in Redis');
    expect(question).toMatchObject({ reply_expected: true });
    await reply({ root: stores, team: 'demo', from: 'rita', inReplyTo: question.msg_id!, text: 'LGTM' });
    const run = await asking;
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ reply: { from: 'rita', text: 'LGTM', in_reply_to: question.msg_id } });
    const shown = JSON.parse((await mailroom('message', 'show', question.msg_id!, '--json')).stdout) as { state: string };
    expect(shown.state).toBe('replied');

    const sends = await Promise.all([1, 2, 3].map(() => mailroom('team', 'send', 'dan', 'once', '--idempotency-key', 'k1', '--json')));
    expect(new Set(sends.map((s) => (JSON.parse(s.stdout) as { entry: { msg_id: string } }).entry.msg_id)).size).toBe(1);
    expect((await stores.team.readInbox('demo', 'dan')).filter((e) => e.text === 'once')).toHaveLength(1);

    expect((await mailroom('task', 'add', 'Review the loader', '--requires', 'review')).code).toBe(0);
    const refused = await mailroom('task', 'claim', '1', '--as', 'dan', '--json');
    expect(refused.code).toBe(5);
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: { code: 'MISSING_CAPABILITY', details: { reason: 'missing_capability', missing: ['review'] } } });
    expect((await mailroom('task', 'claim', '1', '--as', 'rita')).code).toBe(0);
    // Nine CLI processes one after another, with a 15 s wait for the ask and a 20 s ask timeout
    // inside: vitest's 30 s default cut it first under load (seen at load ~20), hiding which step stalled.
  }, 90_000);
});
