/**
 * A read_inbox the client cancels after the server took the messages (docs/mcp.md "Delivery
 * guarantee"): the SDK client drops the reply of a cancelled request, so those messages never
 * reached it — they must come again (same msg_id, marked `redelivered`), not be acknowledged by the
 * client's next call. Both backends, the real `mailroom mcp` binary and the official SDK client:
 * - cancelled while running: the server is frozen right after its take (`MAILROOM_TEST_FREEZE=
 *   mcp-after-take`, src/test-freeze.ts), the client aborts the call
 *   (`notifications/cancelled`), the server is resumed;
 * - cancelled as the reply went out (the two crossed, e.g. the client's own timeout fired): the
 *   client cancels a request the server had already answered;
 * - the client closes the transport while the call runs: the next server hands the messages out
 *   again (whether or not the reply was read before the close).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { openStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { BIN, runCli } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { untilStopped } from '../helpers/processes.js';

interface Shown {
  msg_id: string;
  redelivered?: true;
  delivery_count?: number;
}

interface Backend {
  name: string;
  args(): string[];
  stores(): Promise<Stores>;
}

let redis: RedisServer;
let host: TempDir;
const dirs: TempDir[] = [];
beforeAll(async () => {
  redis = await startRedis();
  host = await makeTempDir('mailroom-cancel-host-');
});
afterAll(async () => {
  await redis?.stop();
  await host?.cleanup();
  for (const d of dirs) await d.cleanup();
});

function fsBackend(): Backend {
  let root: TempDir | undefined;
  return {
    name: 'filesystem',
    args: () => ['--root', root!.path],
    async stores() {
      root ??= await makeTempDir('mailroom-cancel-');
      dirs.push(root);
      return openStores({ kind: 'fs', root: root.path });
    },
  };
}

function redisBackend(): Backend {
  return { name: 'redis', args: () => ['--store', redis.url, '--root', host.path], stores: () => openStores({ kind: 'redis', url: redis.url, hostRoot: host.path }) };
}

/** A connected SDK client of a real `mailroom mcp` server, its pid, stderr, and the ids of its tools/call requests. */
interface Served {
  client: Client;
  pid: number;
  stderr(): string;
  /**
   * Resolves once the server printed `mailroom-test: frozen` and stopped itself (it prints the line
   * first: a SIGCONT sent between the two would be lost, and the server then stays stopped).
   */
  frozen: Promise<void>;
  /** JSON-RPC ids of the tools/call requests sent, in order. */
  calls: Array<string | number>;
  close(): Promise<void>;
}

async function serve(b: Backend, team: string, env: Record<string, string> = {}): Promise<Served> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...b.args(), 'mcp', '--team', team, '--as', 'alice'], env: cleanEnv(env) as Record<string, string>, stderr: 'pipe' });
  let stderr = '';
  let onFrozen: () => void = () => undefined;
  const frozen = new Promise<void>((resolve) => (onFrozen = resolve));
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.includes('mailroom-test: frozen')) onFrozen();
  });
  const calls: Array<string | number> = [];
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'tools/call' && 'id' in message) calls.push(message.id);
    return send(message);
  };
  const client = new Client({ name: 'mailroom-cancel-test', version: '0.0.0' });
  await client.connect(transport);
  const pid = transport.pid!;
  return { client, pid, stderr: () => stderr, frozen: frozen.then(() => untilStopped(pid)).then(() => undefined), calls, close: () => client.close() };
}

const read = async (s: Served): Promise<Shown[]> => {
  const r = (await s.client.callTool({ name: 'read_inbox', arguments: { limit: 10 } })) as CallToolResult;
  expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  return ((r.structuredContent as { messages?: Shown[] }).messages ?? []);
};

/** A team with member alice (registered by a first server) and three messages in her inbox. */
async function setUp(b: Backend, team: string): Promise<{ stores: Stores; sent: string[]; unread(): Promise<string[]> }> {
  const stores = await b.stores();
  const created = await runCli([...b.args(), 'team', 'create', team], cleanEnv());
  expect(created.code, created.stderr).toBe(0);
  await (await serve(b, team)).close();
  const sent = [randomUUID(), randomUUID(), randomUUID()];
  await stores.team.appendMessages(team, sent.map((id, i) => ({ to: 'alice', entry: makeInboxEntry({ from: 'team-lead', text: `message ${i}`, timestamp: new Date().toISOString(), msgId: id }) })));
  const unread = async () => (await stores.team.readInbox(team, 'alice')).filter((e) => !e.read).map((e) => e.msg_id ?? '');
  return { stores, sent, unread };
}

/** The messages came again, same msg_ids, each marked a redelivery (handed out twice). */
function expectRedelivered(got: readonly Shown[], sent: readonly string[]): void {
  expect(got.map((m) => m.msg_id)).toEqual(sent);
  for (const m of got) expect(m, `msg_id ${m.msg_id}`).toMatchObject({ redelivered: true, delivery_count: 2 });
}

describe.each([fsBackend(), redisBackend()])('a cancelled read_inbox gives its messages back: $name', (b) => {
  it('cancelled while it runs (after the take): the next read_inbox hands them out again, marked redelivered', async () => {
    const team = `cancel-running-${b.name}`;
    const { stores, sent, unread } = await setUp(b, team);
    const s = await serve(b, team, { MAILROOM_TEST_FREEZE: 'mcp-after-take' });
    try {
      const abort = new AbortController();
      const call = s.client.callTool({ name: 'read_inbox', arguments: { limit: 10 } }, undefined, { signal: abort.signal });
      await s.frozen;
      abort.abort(new Error('the user pressed Esc'));
      await expect(call).rejects.toThrow();
      process.kill(s.pid, 'SIGCONT');
      expectRedelivered(await read(s), sent);
      // Not acknowledged by that call: the client has just received them.
      expect(await unread()).toEqual(sent);
      expect(await read(s)).toEqual([]);
      expect(await unread()).toEqual([]);
    } finally {
      process.kill(s.pid, 'SIGCONT');
      await s.close();
      await stores.close();
    }
  }, 120_000);

  it('cancelled as its reply went out (the two crossed): the next read_inbox hands them out again, marked redelivered', async () => {
    const team = `cancel-crossed-${b.name}`;
    const { stores, sent, unread } = await setUp(b, team);
    const s = await serve(b, team);
    try {
      expect((await read(s)).map((m) => m.msg_id)).toEqual(sent);
      // A client whose timeout fired as the reply arrived has sent this and dropped the reply.
      await s.client.notification({ method: 'notifications/cancelled', params: { requestId: s.calls.at(-1)!, reason: 'Request timed out' } });
      expectRedelivered(await read(s), sent);
      expect(await unread()).toEqual(sent);
      expect(await read(s)).toEqual([]);
      expect(await unread()).toEqual([]);
    } finally {
      await s.close();
      await stores.close();
    }
  }, 120_000);

  it('the client closes the transport while the call runs (after the take): the next server hands them out again, marked redelivered', async () => {
    const team = `cancel-closed-${b.name}`;
    const { stores, sent, unread } = await setUp(b, team);
    const s = await serve(b, team, { MAILROOM_TEST_FREEZE: 'mcp-after-take' });
    const call = s.client.callTool({ name: 'read_inbox', arguments: { limit: 10 } });
    await s.frozen;
    const closing = s.close();
    process.kill(s.pid, 'SIGCONT');
    await closing;
    // The server still answers what was in flight when stdin ended (a pipe client gets every
    // answer), so the reply may or may not have been read before the client closed: either way
    // nothing acknowledged those messages, and they come again.
    await call.catch(() => undefined);
    const next = await serve(b, team);
    try {
      expectRedelivered(await read(next), sent);
      expect(await read(next)).toEqual([]);
      expect(await unread()).toEqual([]);
    } finally {
      await next.close();
      await stores.close();
    }
  }, 120_000);
});
