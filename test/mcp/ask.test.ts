/**
 * Asks over MCP (official SDK client against the real `mailroom mcp`): the lead asks the MCP member
 * with the CLI, which sees the ask in read_inbox and answers it with `reply`; the MCP member asks a
 * process teammate driven by the scripted model with `ask`, which returns the reply; and `ask` to a
 * stopped member fails at once.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMember } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { dataOf, errorOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

interface Msg { from: string; text: string; msg_id: string; reply_expected?: boolean; in_reply_to?: string }

describe('ask and reply over MCP', () => {
  let dir: TempDir;
  let codex: McpMember;
  const cli = (...args: string[]) => runCli(['--root', dir.path, '--team', 'demo', ...args]);

  beforeAll(async () => {
    dir = await makeTempDir('mailroom-mcp-ask-');
    expect((await runCli(['--root', dir.path, 'team', 'create', 'demo'])).code).toBe(0);
    codex = await startMcpMember(['--root', dir.path, '--team', 'demo', '--as', 'codex']);
  });
  afterAll(async () => {
    await cli('team', 'stop', 'bob', '--force');
    await codex?.close();
    await dir?.cleanup();
  });

  it('offers ask and reply', async () => {
    const { tools } = await codex.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['ask', 'reply']));
    const ask = tools.find((t) => t.name === 'ask')!;
    expect(Object.keys(ask.inputSchema.properties ?? {}).sort()).toEqual(['idempotency_key', 'summary', 'text', 'timeout_ms', 'to']);
  });

  it('the CLI lead asks the MCP member, which answers with reply', async () => {
    const asking = cli('team', 'ask', 'codex', 'Did the build pass?', '--timeout', '20s', '--json');
    const got = await until(async () => {
      const { messages } = dataOf<{ messages: Msg[] }>(await codex.call('read_inbox'));
      return messages.find((m) => m.text === 'Did the build pass?');
    }, 15_000, 'the ask over MCP');
    expect(got).toMatchObject({ from: 'team-lead', reply_expected: true, msg_id: expect.any(String) });
    const sent = dataOf<{ sent: { to: string; in_reply_to: string }; late: boolean }>(await codex.call('reply', { in_reply_to: got.msg_id, text: 'Green on all three' }));
    expect(sent).toMatchObject({ sent: { to: 'team-lead', in_reply_to: got.msg_id }, late: false });
    const run = await asking;
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ask: { entry: { msg_id: got.msg_id } }, reply: { from: 'codex', text: 'Green on all three' } });
  });

  it('the MCP member asks a process teammate and gets its reply as the tool result', async () => {
    const script = join(dir.path, 'bob.json');
    await writeFile(script, JSON.stringify([{ toolCalls: [{ name: 'SendMessage', input: { to: 'codex', message: 'Parser is done' } }] }]));
    expect((await cli('team', 'spawn', 'bob', '--backend', 'process', '--model', `scripted:${script}`)).code).toBe(0);
    const answer = dataOf<{ asked: { to: string; msg_id: string }; reply: { from: string; text: string } }>(await codex.call('ask', { to: 'bob', text: 'How far is the parser?', timeout_ms: 20_000 }));
    expect(answer).toMatchObject({ asked: { to: 'bob' }, reply: { from: 'bob', text: 'Parser is done' } });
    // Handed out as the tool result: not handed out again by read_inbox.
    const { messages } = dataOf<{ messages: Msg[] }>(await codex.call('read_inbox'));
    expect(messages.filter((m) => m.in_reply_to === answer.asked.msg_id)).toEqual([]);
  });

  it('fails at once when the member asked cannot answer', async () => {
    await spawnMember({ root: openFsStores(dir.path), team: 'demo', name: 'idle-worker', backend: 'process' });
    const error = errorOf(await codex.call('ask', { to: 'idle-worker', text: 'Anyone?', timeout_ms: 60_000 }));
    expect(error).toMatchObject({ code: 'MEMBER_UNREACHABLE', details: { presence: 'stopped' } });
  });
});
