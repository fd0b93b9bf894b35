/**
 * More moments to pause a `mailroom agent` (SIGSTOP through `MAILROOM_TEST_FREEZE`), take its
 * member over from another host through the store once its claim died, and wake it (SIGCONT):
 * - on Redis, with its model's answer in hand (`answered`): its acknowledgement names its
 *   reader-claim token and is refused READER_FENCED in the script (claim-reader.lua,
 *   acknowledge.lua), as on files (test/e2e/agent-paused-taken-over.test.ts);
 * - on files and on Redis, with its request made for entries it only looked at (`looked-take`: on
 *   Redis the look its append published): its take names its token and is refused READER_FENCED,
 *   so the request's answer never acts.
 * - on both stores, in a turn an open task started (nothing handed out, so no lease to fence the
 *   answer): it confirms its claim before the answer acts (ReaderLease.confirm). On files the
 *   agent is frozen while its not-awaited `working` beat holds the claim file's lock; that write,
 *   resumed after the successor took the stale lock, is repaired back to the successor's claim
 *   (locked-write.ts), and the beat used to stamp that file by path and cache it as its own, so the
 *   confirmation landed on the successor's claim and the answer acted (found when this file ran
 *   whole; the claim write now checks, through one descriptor, that the file is its claim).
 * Either way the woken agent stops, nothing it was answered acts, and a message is the
 * successor's (handed out once, to it). `MAILROOM_BEAT_MS=500`: a claim dies 1.5 s after its last beat.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addTask, createTeam, readInbox, sendMessage, spawnMember } from '../../src/index.js';
import { Layout } from '../../src/store/fs/paths.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { takeOverFromAnotherHost, until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { asleepAfterIdleSeen, asleepAfterIdleWrite } from '../helpers/trace-marks.js';

let redis: RedisServer;
let dir: TempDir;
let server: FakeAnthropicServer;
let agent: LineChild | undefined;
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
  if (agent) {
    agent.proc.kill('SIGCONT');
    agent.proc.kill('SIGKILL');
    await agent.exited;
    agent = undefined;
  }
  for (const s of open.splice(0)) await s.close();
  await server.close();
  await dir.cleanup();
});

const cases: Array<[backend: 'files' | 'redis', point: 'answered' | 'looked-take']> = [
  ['redis', 'answered'],
  ['files', 'looked-take'],
  ['redis', 'looked-take'],
];

/** Wakes the paused agent (SIGCONT) and checks it stops as a runtime whose claim was taken over does; returns what it said. */
async function wokenStops(paused: LineChild): Promise<string> {
  paused.proc.kill('SIGCONT');
  const exit = await paused.exited;
  const said = `${paused.lines().join('\n')}\n${paused.stderr()}`;
  expect(exit, said).toBe(0);
  expect(said).toContain('lost the reader claim');
  return said;
}

describe('mailroom agent paused, taken over from another host, then woken', () => {
  it.each(cases)('%s, paused at %s: nothing the model answered acts, the agent stops, the message is the successor\'s', async (backend, point) => {
    const team = `t-${backend}-${point}`;
    const stores = await (backend === 'files' ? openStores({ kind: 'fs', root: dir.path }) : openStores({ kind: 'redis', url: redis.url, hostRoot: dir.path }));
    open.push(stores);
    const texts = async (member: string) => (await readInbox({ root: stores, team, agent: member })).messages.map((m) => m.entry.text);
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice' });
    const warm = point === 'looked-take'; // the looked-at path is taken once a first delivery judged the team open
    server.enqueue(
      ...(warm ? [{ type: 'message' as const, text: 'warmed up' }] : []),
      { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: the paused agent acted' } }] },
      { type: 'message', text: '' },
    );
    const env = { ...process.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL, MAILROOM_BEAT_MS: '500', MAILROOM_TEST_FREEZE: `${point}:${team}/alice`, MAILROOM_TRACE_MARKS: '1' };
    const storeArgs = backend === 'files' ? ['--root', dir.path] : ['--store', redis.url, '--root', dir.path];
    agent = startCli(['agent', 'alice', ...storeArgs, '--team', team, '--model', 'anthropic:claude-test', '--poll-ms', '1h'], env);
    await agent.waitForLine((l) => l.includes(' started ('), 0, 60_000);
    if (warm) {
      await sendMessage({ root: stores, team, to: 'alice', text: 'warm up' });
      await until(async () => (await texts('team-lead')).some((t) => t.includes('"idle_notification"')), 30_000, 'the agent idle after the warm-up');
      // Asleep after the warm-up's one model call and its idle isActive write (`warm` is the looked-take
      // case): ping wakes it by the watch and is looked at (sent before the check after the
      // turn, or after that write's config hint, it would be taken by a full check, never looked at).
      const warmed = agent;
      const asleep =
        backend === 'files'
          ? () => asleepAfterIdleWrite(warmed, 1, new Layout(dir.path).configPath(team), 'alice')
          : asleepAfterIdleSeen(warmed, 1, async () => (await stores.team.readConfig(team)).members.find((m) => m.name === 'alice')?.isActive === false);
      await until(asleep, 30_000, 'the agent asleep after the warm-up');
    }
    await sendMessage({ root: stores, team, to: 'alice', text: 'ping' });
    await until(() => agent!.stderr().includes(`mailroom-test: frozen ${point} ${team}/alice`), 30_000, 'the agent paused').catch((e: unknown) => {
      throw new Error(`${String(e)}; requests ${server.requests.length}; stderr: ${agent!.stderr()}; stdout: ${agent!.lines().join('\n')}`);
    });
    const requestsWhenPaused = server.requests.length;

    const successor = await takeOverFromAnotherHost(stores, team, 'alice');
    const { value } = await stores.team.takeUnread(team, 'alice', { reader: successor, claim: successor });
    expect(value.entries.map((e) => e.text)).toEqual(['ping']);

    const said = await wokenStops(agent);
    agent = undefined;
    expect((await texts('team-lead')).filter((t) => t.includes('LEAK'))).toEqual([]);
    expect(server.requests).toHaveLength(requestsWhenPaused); // no request after the wake
    expect((await stores.team.readInbox(team, 'alice')).filter((e) => e.text === 'ping').map((e) => e.read === true)).toEqual([false]);
    await stores.team.releaseReader(team, 'alice', successor);
  }, 180_000);
});

describe('mailroom agent paused in a turn a task started (no message delivered), taken over, then woken', () => {
  it.each([['redis'], ['files']] as const)('%s, paused at answered: nothing the model answered acts, the agent stops', async (backend) => {
    const team = `t-task-${backend}`;
    const stores = await ((backend as string) === 'files' ? openStores({ kind: 'fs', root: dir.path }) : openStores({ kind: 'redis', url: redis.url, hostRoot: dir.path }));
    open.push(stores);
    const texts = async (member: string) => (await readInbox({ root: stores, team, agent: member })).messages.map((m) => m.entry.text);
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice' });
    server.enqueue(
      { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: the paused agent acted' } }] },
      { type: 'message', text: '' },
    );
    // Nothing in alice's inbox: an open task starts her turn, so the step's take hands out nothing.
    await addTask({ root: stores, team, subject: 'an open task' });
    const env = { ...process.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL, MAILROOM_BEAT_MS: '500', MAILROOM_TEST_FREEZE: `answered:${team}/alice` };
    const storeArgs = (backend as string) === 'files' ? ['--root', dir.path] : ['--store', redis.url, '--root', dir.path];
    agent = startCli(['agent', 'alice', ...storeArgs, '--team', team, '--model', 'anthropic:claude-test', '--poll-ms', '1h'], env);
    await until(() => agent!.stderr().includes(`mailroom-test: frozen answered ${team}/alice`), 60_000, 'the agent paused').catch((e: unknown) => {
      throw new Error(`${String(e)}; requests ${server.requests.length}; stderr: ${agent!.stderr()}; stdout: ${agent!.lines().join('\n')}`);
    });
    const requestsWhenPaused = server.requests.length;
    const successor = await takeOverFromAnotherHost(stores, team, 'alice');

    const said = await wokenStops(agent);
    agent = undefined;
    expect((await texts('team-lead')).filter((t) => t.includes('LEAK')), said).toEqual([]);
    expect(server.requests).toHaveLength(requestsWhenPaused);
    await stores.team.releaseReader(team, 'alice', successor);
  }, 180_000);
});
