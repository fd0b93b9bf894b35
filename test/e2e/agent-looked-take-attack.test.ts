/**
 * Attacks on an idle `mailroom agent`'s request before its take (files; src/runtime/turn.ts
 * `commitLooked`): the agent is frozen right after the request for the entries it looked at
 * (`MAILROOM_TEST_FREEZE=looked-take`, src/test-freeze.ts), its inbox is tampered with by hand (as
 * another writer with no lock, Claude Code, could), and it is woken (SIGCONT). Whatever the model
 * answered to what the look saw must not act unless the take handed out exactly those entries;
 * the message is not lost and is answered once.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
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
const inboxFile = () => new Layout(dir.path).inboxPath('t', 'alice');

/** alice started, warmed up, sent `ping`, and frozen after the request carrying it, before its take. */
async function frozenAfterLook(): Promise<LineChild> {
  await createTeam({ root: stores(), team: 't' });
  await spawnMember({ root: stores(), team: 't', name: 'alice' });
  server.enqueue(
    { type: 'message', text: 'warmed up' },
    { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: answered what the look saw' } }] },
  );
  const env = { ...process.env, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.baseURL, MAILROOM_TEST_FREEZE: 'looked-take:t/alice', MAILROOM_TRACE_MARKS: '1' };
  const agent = startCli(['agent', 'alice', '--root', dir.path, '--team', 't', '--model', 'anthropic:claude-test', '--poll-ms', '1h'], env);
  agents.push(agent);
  await agent.waitForLine((l) => l.includes(' started ('), 0, 60_000);
  await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'warm up' });
  await until(async () => (await inbox('team-lead')).some((e) => e.text.includes('"idle_notification"')), 30_000, 'the agent idle after the warm-up');
  // Asleep after the warm-up's one model call and its idle isActive write: only the watch wakes it for
  // ping, by a look (sent before the check after the turn, or after that write's config hint, ping
  // would be taken by a full check and never looked at).
  await until(() => asleepAfterIdleWrite(agent, 1, new Layout(dir.path).configPath('t'), 'alice'), 30_000, 'the agent asleep after the warm-up');
  await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
  await until(() => agent.stderr().includes('mailroom-test: frozen looked-take'), 30_000, 'the agent frozen before its take');
  await until(() => server.requests.length >= 2 && JSON.stringify(server.requests[1]?.body ?? {}).includes('ping'), 10_000, 'the request carrying ping');
  return agent;
}

describe('mailroom agent: its inbox tampered with between its look and its take (files)', () => {
  it('an entry rewritten in place (same msg_id, other text): the answer to the old text does not act; the new text is answered once', async () => {
    const agent = await frozenAfterLook();
    server.enqueue(
      { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'answer to the rewritten text' } }] },
      { type: 'message', text: '' },
    );
    const entries = JSON.parse(readFileSync(inboxFile(), 'utf8')) as { text: string }[];
    const ping = entries.find((e) => e.text === 'ping')!;
    ping.text = 'REWRITTEN';
    writeFileSync(inboxFile(), JSON.stringify(entries, null, 2));
    agent.proc.kill('SIGCONT');
    await until(async () => (await inbox('team-lead')).some((e) => e.text === 'answer to the rewritten text' || e.text.includes('LEAK')), 30_000, 'an answer');
    await until(async () => (await inbox('alice')).every((e) => e.read), 30_000, 'the rewritten entry read');
    expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK'))).toEqual([]);
    // The first request after the wake (the follow-up to the answer's tool result may not be made yet).
    expect(JSON.stringify(server.requests[2]?.body ?? {})).toContain('REWRITTEN');
    expect((await inbox('team-lead')).filter((e) => e.text === 'answer to the rewritten text')).toHaveLength(1);
  }, 180_000);

  it('the inbox replaced by one that does not parse: nothing acts, the file is not overwritten; once it is whole again ping is answered once', async () => {
    const agent = await frozenAfterLook();
    server.enqueue(
      { type: 'message', toolUses: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'answer to ping' } }] },
      { type: 'message', text: '' },
    );
    const whole = readFileSync(inboxFile(), 'utf8');
    writeFileSync(inboxFile(), '[{"from": "team-lead", "te');
    agent.proc.kill('SIGCONT');
    // Its take after the wake reads the torn file and refuses it: the turn fails, and only then is it
    // known that nothing acted (a fixed pause passed without the agent running at all on a loaded machine).
    await agent.waitForLine((l) => l.includes('turn failed: ') && l.includes('is not valid JSON'), 0, 30_000);
    expect(readFileSync(inboxFile(), 'utf8')).toBe('[{"from": "team-lead", "te');
    expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK') || e.text === 'answer to ping')).toEqual([]);
    // Made whole again in one rename (as Claude Code writes it): one inbox hint, nothing else sent.
    writeFileSync(`${inboxFile()}.raw-tmp`, whole);
    renameSync(`${inboxFile()}.raw-tmp`, inboxFile());
    await until(async () => (await inbox('team-lead')).some((e) => e.text === 'answer to ping'), 60_000, 'ping answered after the file is whole');
    expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK'))).toEqual([]);
    expect((await inbox('team-lead')).filter((e) => e.text === 'answer to ping')).toHaveLength(1);
  }, 180_000);
});
