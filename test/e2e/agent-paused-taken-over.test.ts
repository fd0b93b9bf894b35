/**
 * A `mailroom agent` paused (SIGSTOP) with its model's answer in hand, presumed dead, its member
 * taken over, then woken (docs/runtime.md "One reader per member"): its acknowledgement names its
 * reader-claim token and is refused READER_FENCED in the store's step, so the answer never acts,
 * the process stops, and the message is the successor's. The agent stops itself right after the
 * answer came and before its acknowledgement (`MAILROOM_TEST_FREEZE=answered`, src/test-freeze.ts),
 * beating every 500 ms (`MAILROOM_BEAT_MS`: its claim dies 1.5 s after its last beat). The successor
 * is a reader on another host taking the claim through the store, as a `mailroom agent` there would
 * (on this host the agent's pid record refuses a second `mailroom agent` while the paused one lives).
 * Before session 20 the woken agent acted on the answer (its SendMessage reached the lead) while
 * the successor was handed the same message again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam, readInbox, sendMessage, spawnMember } from '../../src/index.js';
import { openFsStores } from '../../src/store/open.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { takeOverFromAnotherHost, until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
let server: FakeAnthropicServer;
let agent: LineChild | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
  server = await startFakeAnthropicServer();
});
afterEach(async () => {
  if (agent) {
    agent.proc.kill('SIGCONT');
    agent.proc.kill('SIGKILL');
    await agent.exited;
  }
  await server.close();
  await dir.cleanup();
});

const stores = () => openFsStores(dir.path);
const texts = async (member: string) => (await readInbox({ root: stores(), team: 't', agent: member })).messages.map((m) => m.entry.text);

describe('mailroom agent paused with an answer in hand, taken over, then woken (files)', () => {
  it('does not act on the answer: the woken agent stops, and the message is handed to the successor', async () => {
    await createTeam({ root: stores(), team: 't' });
    await spawnMember({ root: stores(), team: 't', name: 'alice' });
    server.enqueue({ type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: the paused agent acted' } }] }, { type: 'message', text: '' });
    const env = { ...process.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL, MAILROOM_BEAT_MS: '500', MAILROOM_TEST_FREEZE: 'answered:t/alice' };
    agent = startCli(['agent', 'alice', '--root', dir.path, '--team', 't', '--model', 'anthropic:claude-test', '--poll-ms', '1h'], env);
    await agent.waitForLine((l) => l.includes(' started ('), 0, 60_000);
    await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
    await until(() => agent!.stderr().includes('mailroom-test: frozen answered t/alice'), 30_000, 'the agent paused with its answer').catch((e: unknown) => {
      throw new Error(`${String(e)}; requests ${server.requests.length}; stderr: ${agent!.stderr()}; stdout: ${agent!.lines().join('\n')}`);
    });

    const successor = await takeOverFromAnotherHost(stores(), 't', 'alice');
    const { value } = await stores().team.takeUnread('t', 'alice', { reader: successor, claim: successor });
    expect(value.entries.map((e) => e.text)).toEqual(['ping']);

    agent.proc.kill('SIGCONT');
    const exit = await agent.exited;
    expect(exit).toBe(0); // it stopped as a runtime replaced by another does (no failure to restart on)
    expect(`${agent.lines().join('\n')}\n${agent.stderr()}`).toContain('lost the reader claim');
    expect((await texts('team-lead')).filter((t) => t.includes('LEAK'))).toEqual([]);
    expect(server.requests).toHaveLength(1);
    // The successor's hand-out stands: ping is neither read nor handed out again.
    expect((await stores().team.readInbox('t', 'alice')).map((e) => [e.text, e.read])).toEqual([['ping', false]]);
    await stores().team.releaseReader('t', 'alice', successor);
    agent = undefined;
  }, 180_000);
});
