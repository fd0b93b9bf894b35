/**
 * kill -9 of an idle `mailroom agent` between its model request and the take that hands the
 * message out (issue 24: a woken agent makes the request for the entries it looked at — on files
 * by a read, on Redis the look its send's append published — then takes them; src/runtime/turn.ts
 * `commitLooked`). The agent is frozen right there (`MAILROOM_TEST_FREEZE=looked-take`,
 * src/test-freeze.ts) after the fake Anthropic API got the request carrying the message, and
 * killed: nothing was handed out, so the restarted agent gets the message in its first request and
 * answers it once; what the killed agent's model answered is never acted on.
 */
import { readFileSync } from 'node:fs';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTeam, readInbox, sendMessage, spawnMember } from '../../src/index.js';
import { Layout } from '../../src/store/fs/paths.js';
import { openStores } from '../../src/store/open.js';
import { teamBase } from '../../src/store/redis/keys.js';
import type { Stores } from '../../src/store/selection.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { asleepAfterIdleSeen, asleepAfterIdleWrite } from '../helpers/trace-marks.js';

let redis: RedisServer;
let dir: TempDir;
let server: FakeAnthropicServer;
const agents: LineChild[] = [];
const open: Stores[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(async () => {
  dir = await makeTempDir();
  server = await startFakeAnthropicServer();
});
afterEach(async () => {
  for (const a of agents.splice(0)) {
    a.proc.kill('SIGKILL');
    await a.exited;
  }
  for (const s of open.splice(0)) await s.close();
  await server.close();
  await dir.cleanup();
});

const carries = (i: number, text: string) => JSON.stringify(server.requests[i]?.body ?? {}).includes(text);

/** The entries handed out of `member`'s inbox now: the files sidecar's leases, or the Redis inbox's `taken` hash. */
async function handedOut(backend: 'files' | 'redis', team: string, member: string): Promise<number> {
  if (backend === 'files') return (JSON.parse(readFileSync(new Layout(dir.path).leasePath(team, member), 'utf8')) as { leases: unknown[] }).leases.length;
  const raw = createClient({ url: redis.url });
  await raw.connect();
  try {
    const gen = await raw.hGet(`${teamBase(team)}team`, 'gen');
    return await raw.hLen(`${teamBase(team)}g${gen}:i:taken:${member}`);
  } finally {
    await raw.close();
  }
}

describe.each(['files', 'redis'] as const)('mailroom agent killed between its request and its take (%s)', (backend) => {
  it('the message is not lost: the restarted agent gets it and answers once; the killed one\'s answer never acts', async () => {
    const team = `t-${backend}`;
    const stores = await (backend === 'files' ? openStores({ kind: 'fs', root: dir.path }) : openStores({ kind: 'redis', url: redis.url, hostRoot: dir.path }));
    open.push(stores);
    const inbox = async (agent: string) => (await readInbox({ root: stores, team, agent })).messages.map((m) => m.entry);
    const startAgent = (extraEnv: Record<string, string>): LineChild => {
      const env = { ...process.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL, ...extraEnv };
      const storeArgs = backend === 'files' ? ['--root', dir.path] : ['--store', redis.url, '--root', dir.path];
      const agent = startCli(['agent', 'alice', ...storeArgs, '--team', team, '--model', 'anthropic:claude-test', '--poll-ms', '1h'], env);
      agents.push(agent);
      return agent;
    };
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice' });
    server.enqueue(
      { type: 'message', text: 'warmed up' },
      { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: the killed agent answered' } }] },
      { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'answer to ping' } }] },
      { type: 'message', text: '' },
    );
    const first = startAgent({ MAILROOM_TEST_FREEZE: `looked-take:${team}/alice`, MAILROOM_TRACE_MARKS: '1' });
    await first.waitForLine((l) => l.includes(' started ('), 0, 60_000);
    // The warm-up judges the team open, so the next wake takes the looked-at path.
    await sendMessage({ root: stores, team, to: 'alice', text: 'warm up' });
    await until(async () => (await inbox('team-lead')).some((e) => e.text.includes('"idle_notification"')), 30_000, 'the agent idle after the warm-up');
    // Asleep after the warm-up's one model call and its idle isActive write: the next send wakes it by
    // the watch, and it looks (sent before the check after the turn, or after that write's config
    // hint, ping would be taken by a full check, never looked at).
    const asleep =
      backend === 'files'
        ? () => asleepAfterIdleWrite(first, 1, new Layout(dir.path).configPath(team), 'alice')
        : asleepAfterIdleSeen(first, 1, async () => (await stores.team.readConfig(team)).members.find((m) => m.name === 'alice')?.isActive === false);
    await until(asleep, 30_000, 'the agent asleep after the warm-up');

    await sendMessage({ root: stores, team, to: 'alice', text: 'ping' });
    await until(() => first.stderr().includes('mailroom-test: frozen looked-take'), 30_000, 'the agent frozen before its take').catch((e: unknown) => { throw new Error(`${String(e)}; requests ${server.requests.length}; stderr: ${first.stderr()}; stdout: ${first.lines().join('\n')}`); });
    await until(() => server.requests.length >= 2 && carries(1, 'ping'), 10_000, 'the request carrying ping, made before the take');
    expect(await handedOut(backend, team, 'alice')).toBe(0); // nothing handed out yet
    first.proc.kill('SIGKILL');
    await first.exited;

    const second = startAgent({});
    await until(async () => (await inbox('team-lead')).some((e) => e.text === 'answer to ping'), 60_000, 'the restarted agent answering ping');
    await until(async () => (await inbox('alice')).every((e) => e.read), 30_000, 'ping read');
    expect(carries(2, 'ping')).toBe(true); // the restarted agent's first request
    expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK'))).toEqual([]);
    expect((await inbox('team-lead')).filter((e) => e.text === 'answer to ping')).toHaveLength(1);
    await second.stop();
  }, 180_000);
});
