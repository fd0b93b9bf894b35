/**
 * kill -9 of an idle `mailroom agent` between its model request and the take that hands the
 * message out (issue 24: on files a woken agent makes the request for the entries it looked at,
 * then takes them; src/runtime/turn.ts `commitLooked`). The agent is frozen right there
 * (`MAILROOM_TEST_FREEZE=looked-take`, src/test-freeze.ts) after the fake Anthropic API got the
 * request carrying the message, and killed: nothing was handed out, so the restarted agent gets
 * the message in its first request and answers it once; what the killed agent's model answered
 * is never acted on.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam, readInbox, sendMessage, spawnMember } from '../../src/index.js';
import { Layout } from '../../src/store/fs/paths.js';
import { openFsStores } from '../../src/store/open.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { asleepAfterIdleWrite } from '../helpers/trace-marks.js';

let dir: TempDir;
let server: FakeAnthropicServer;
const agents: LineChild[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  server = await startFakeAnthropicServer();
});
afterEach(async () => {
  for (const a of agents.splice(0)) {
    a.proc.kill('SIGKILL');
    await a.exited;
  }
  await server.close();
  await dir.cleanup();
});

const stores = () => openFsStores(dir.path);
const inbox = async (agent: string) => (await readInbox({ root: stores(), team: 't', agent })).messages.map((m) => m.entry);
const carries = (i: number, text: string) => JSON.stringify(server.requests[i]?.body ?? {}).includes(text);

function startAgent(extraEnv: Record<string, string>): LineChild {
  const env = { ...process.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL, ...extraEnv };
  const agent = startCli(['agent', 'alice', '--root', dir.path, '--team', 't', '--model', 'anthropic:claude-test', '--poll-ms', '1h'], env);
  agents.push(agent);
  return agent;
}

describe('mailroom agent killed between its request and its take (files)', () => {
  it('the message is not lost: the restarted agent gets it and answers once; the killed one\'s answer never acts', async () => {
    await createTeam({ root: stores(), team: 't' });
    await spawnMember({ root: stores(), team: 't', name: 'alice' });
    server.enqueue(
      { type: 'message', text: 'warmed up' },
      { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: the killed agent answered' } }] },
      { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'answer to ping' } }] },
      { type: 'message', text: '' },
    );
    const first = startAgent({ MAILROOM_TEST_FREEZE: 'looked-take:t/alice', MAILROOM_TRACE_MARKS: '1' });
    await first.waitForLine((l) => l.includes(' started ('), 0, 60_000);
    // The warm-up judges the team open, so the next wake takes the looked-at path.
    await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'warm up' });
    await until(async () => (await inbox('team-lead')).some((e) => e.text.includes('"idle_notification"')), 30_000, 'the agent idle after the warm-up');
    // Asleep after the warm-up's one model call and its idle isActive write: the next send wakes it by
    // the watch, and it looks (sent before the check after the turn, or after that write's config
    // hint, ping would be taken by a full check, never looked at).
    await until(() => asleepAfterIdleWrite(first, 1, new Layout(dir.path).configPath('t'), 'alice'), 30_000, 'the agent asleep after the warm-up');

    await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
    await until(() => first.stderr().includes('mailroom-test: frozen looked-take'), 30_000, 'the agent frozen before its take').catch((e: unknown) => { throw new Error(`${String(e)}; requests ${server.requests.length}; stderr: ${first.stderr()}; stdout: ${first.lines().join('\n')}`); });
    await until(() => server.requests.length >= 2 && carries(1, 'ping'), 10_000, 'the request carrying ping, made before the take');
    const sidecar = JSON.parse(readFileSync(new Layout(dir.path).leasePath('t', 'alice'), 'utf8')) as { leases: unknown[] };
    expect(sidecar.leases).toEqual([]); // nothing handed out yet
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
