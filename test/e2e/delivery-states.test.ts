/**
 * Delivery states through the real binary: a message to a process teammate driven by the scripted
 * model goes queued → delivered (into its model request) → read → replied, and `team send --wait`
 * waits for each; `message show` and `inbox --status` show them; a wait that times out exits 9;
 * over MCP (official SDK client) read_inbox makes a message delivered, and its acknowledgement (the next read, or `ack`) read.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnMember } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { dataOf, startMcpMember } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

let dir: TempDir;
const cli = (...args: string[]) => runCli(['--root', dir.path, '--team', 'demo', ...args]);
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/);

beforeEach(async () => {
  dir = await makeTempDir('mailroom-states-');
  expect((await runCli(['--root', dir.path, 'team', 'create', 'demo'])).code).toBe(0);
});
afterEach(async () => {
  await cli('team', 'stop', 'bob', '--force');
  await dir.cleanup();
});

interface Status { msg_id: string; state: string; at: Record<string, string | true>; reply?: string }

describe('delivery states', () => {
  it('queued → delivered → read → replied, each waited for and shown', async () => {
    const script = join(dir.path, 'bob.json');
    await writeFile(script, JSON.stringify([{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'on it' } }] }, {}, {}]));
    expect((await cli('team', 'spawn', 'bob', '--backend', 'process', '--model', `scripted:${script}`)).code).toBe(0);

    const sent = await cli('team', 'send', 'bob', 'Please start', '--wait', 'replied', '--timeout', '30s', '--json');
    expect(sent.code, sent.stderr).toBe(0);
    const out = JSON.parse(sent.stdout) as { entry: { msg_id: string }; status: Status };
    expect(out.status).toMatchObject({ msg_id: out.entry.msg_id, state: 'replied', at: { queued: ISO, delivered: ISO, read: ISO, replied: ISO }, reply: expect.any(String) });
    const { at } = out.status;
    expect([at.queued, at.delivered, at.read, at.replied].map((t) => Date.parse(String(t)))).toEqual([...[at.queued, at.delivered, at.read, at.replied].map((t) => Date.parse(String(t)))].sort((x, y) => x - y));

    const shown = await cli('message', 'show', out.entry.msg_id);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^Message ${out.entry.msg_id} from team-lead to bob: replied\\n  queued +\\S+Z\\n  delivered +\\S+Z\\n  read +\\S+Z\\n  replied +\\S+Z \\(reply ${out.status.reply}\\)\\n$`));
    const inbox = await cli('inbox', 'bob', '--status');
    expect(inbox.stdout).toContain(`: Please start [replied, msg_id ${out.entry.msg_id}]`);

    const read = await cli('team', 'send', 'bob', 'Second note', '--wait', 'read', '--timeout', '30s', '--json');
    expect(read.code, read.stderr).toBe(0);
    expect((JSON.parse(read.stdout) as { status: Status }).status).toMatchObject({ state: 'read', at: { delivered: ISO, read: ISO } });
  });

  it('a wait that times out exits 9, saying where the message got to', async () => {
    await spawnMember({ root: openFsStores(dir.path), team: 'demo', name: 'bob' }); // registered, not running
    // --wait-for-start: without it the wait to a member nothing runs ends at once (test/cli/send-wait-unreachable.test.ts).
    const run = await cli('team', 'send', 'bob', 'Anyone?', '--wait', 'delivered', '--wait-for-start', '--timeout', '300ms', '--json');
    expect(run.code).toBe(9);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { code: 'WAIT_TIMEOUT', details: { wanted: 'delivered', status: { state: 'queued' } } } });
    const unknown = await cli('message', 'show', 'no-such-id');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('MESSAGE_NOT_FOUND');
  });

  it('over MCP, read_inbox makes a message delivered, and ack makes it read', async () => {
    const codex = await startMcpMember(['--root', dir.path, '--team', 'demo', '--as', 'codex']);
    try {
      const sent = JSON.parse((await cli('team', 'send', 'codex', 'Hello', '--json')).stdout) as { entry: { msg_id: string } };
      expect((JSON.parse((await cli('message', 'show', sent.entry.msg_id, '--json')).stdout) as Status).state).toBe('queued');
      const waiting = cli('team', 'send', 'codex', 'Hello again', '--wait', 'delivered', '--timeout', '20s', '--json');
      let got: unknown[] = [];
      while (got.length < 2) got = [...got, ...dataOf<{ messages: unknown[] }>(await codex.call('wait_for_message', { timeout_ms: 5_000 })).messages];
      const run = await waiting;
      expect(run.code, run.stderr).toBe(0);
      // Handed out to the client; read once it acknowledges (its next read, or ack: issue 21).
      expect((JSON.parse(run.stdout) as { status: Status }).status.state).toBe('delivered');
      expect(dataOf<{ pending: number }>(await codex.call('ack')).pending).toBe(0);
      expect((JSON.parse((await cli('message', 'show', sent.entry.msg_id, '--json')).stdout) as Status)).toMatchObject({ state: 'read', at: { delivered: ISO, read: ISO } });
    } finally {
      await codex.close();
    }
  });
});
