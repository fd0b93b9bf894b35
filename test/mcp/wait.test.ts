/**
 * wait_for_message: returns as soon as a message lands (driven by the store watch), before its
 * timeout; returns at once when mail is already unread; times out empty; a cancelled wait
 * consumes nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, readInbox, sendMessage } from '../../src/index.js';
import { dataOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

interface Waited { messages: { from: string; text: string }[]; timedOut: boolean }

const LONG_MS = 20_000;

describe('mailroom mcp: wait_for_message', () => {
  let dir: TempDir;
  let codex: McpMember;
  const send = (text: string) => sendMessage({ root: openFsStores(dir.path), team: 'wait', to: 'codex', text });

  beforeAll(async () => {
    dir = await makeTempDir('mailroom-mcp-wait-');
    await createTeam({ root: openFsStores(dir.path), team: 'wait' });
    codex = await startMcpMember(['--root', dir.path, '--team', 'wait', '--as', 'codex']);
  });
  afterAll(async () => {
    await codex?.close();
    await dir?.cleanup();
  });

  it('times out with no messages when none arrive', async () => {
    const got = dataOf<Waited>(await codex.call('wait_for_message', { timeout_ms: 150 }));
    expect(got).toMatchObject({ messages: [], timedOut: true });
  });

  it('returns the message that lands while it waits, before its timeout', async () => {
    const started = Date.now();
    const waiting = codex.call('wait_for_message', { timeout_ms: LONG_MS });
    await sleep(300);
    await send('ping while you wait');
    const got = dataOf<Waited>(await waiting);
    expect(got.timedOut).toBe(false);
    expect(got.messages).toMatchObject([{ from: 'team-lead', text: 'ping while you wait' }]);
    expect(Date.now() - started).toBeLessThan(LONG_MS);
    const handed = await readInbox({ root: openFsStores(dir.path), team: 'wait', agent: 'codex', unread: true });
    expect(handed.messages.map((m) => m.entry.text)).toEqual(['ping while you wait']); // read once acknowledged
    expect(dataOf<{ acknowledged: number; pending: number }>(await codex.call('ack'))).toMatchObject({ acknowledged: 1, pending: 0 });
    const onDisk = await readInbox({ root: openFsStores(dir.path), team: 'wait', agent: 'codex', unread: true });
    expect(onDisk.messages).toEqual([]);
  });

  it('returns at once when messages are already unread, oldest first, up to the limit', async () => {
    await send('first');
    await send('second');
    const got = dataOf<Waited & { remaining: number }>(await codex.call('wait_for_message', { timeout_ms: LONG_MS, limit: 1 }));
    expect(got.messages.map((m) => m.text)).toEqual(['first']);
    expect(got.remaining).toBe(1);
    expect(dataOf<Waited>(await codex.call('read_inbox')).messages.map((m) => m.text)).toEqual(['second']);
  });

  it('a cancelled wait consumes nothing: the next message stays unread for read_inbox', async () => {
    const controller = new AbortController();
    const waiting = codex.client.callTool({ name: 'wait_for_message', arguments: { timeout_ms: LONG_MS } }, undefined, { signal: controller.signal });
    await sleep(200);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    // The server handles stdin in order: once a later request is answered, the cancel was handled.
    await codex.call('list_members');
    await send('after the cancel');
    expect(dataOf<Waited>(await codex.call('read_inbox')).messages.map((m) => m.text)).toEqual(['after the cancel']);
  });
});
