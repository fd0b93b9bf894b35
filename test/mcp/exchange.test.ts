/**
 * A full exchange between an MCP member (`mailroom mcp`, driven by the official MCP SDK client) and
 * the lead driven through the real CLI: joining, messages both ways, tasks, errors, resources, and
 * the shutdown handshake with the request id echoed byte for byte.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeShutdown, readInbox, sendStructured, showTeam } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { dataOf, errorOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

/** The text of a resource's single content block. */
function resourceText(result: { contents: ({ text: string } | { blob: string })[] }): string {
  const first = result.contents[0];
  if (!first || !('text' in first)) throw new Error('expected one text content');
  return first.text;
}

interface Msg { from: string; text: string; type?: string; message?: Record<string, unknown> }

describe('mailroom mcp: a full exchange with a CLI lead', () => {
  let dir: TempDir;
  let codex: McpMember;
  const cli = (...args: string[]) => runCli(['--root', dir.path, '--team', 'demo', ...args]);

  beforeAll(async () => {
    dir = await makeTempDir('mailroom-mcp-');
    expect((await runCli(['--root', dir.path, 'team', 'create', 'demo'])).code).toBe(0);
    codex = await startMcpMember(['--root', dir.path, '--team', 'demo', '--as', 'codex', '--model', 'gpt-5-codex']);
  });
  afterAll(async () => {
    await codex?.close();
    await dir?.cleanup();
  });

  it('registers the agent as a member with no pane and no Claude Code backend, and logs only to stderr', async () => {
    const config = JSON.parse(await readFile(join(dir.path, 'teams/demo/config.json'), 'utf8'));
    const member = config.members.find((m: { name: string }) => m.name === 'codex');
    expect(member).toMatchObject({ agentId: 'codex@demo', tmuxPaneId: '', model: 'gpt-5-codex', subscriptions: [] });
    expect(member).not.toHaveProperty('backendType');
    expect(codex.stderr()).toContain('joined codex@demo');
    const { tools } = await codex.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['ack', 'approve_request', 'ask', 'broadcast', 'deny_request', 'lease_acquire', 'lease_list', 'lease_release', 'list_members', 'list_requests', 'read_inbox', 'reply', 'send_message', 'shutdown_response', 'task_claim', 'task_create', 'task_get', 'task_list', 'task_update', 'wait_for_message'],
    );
  });

  it('lists the members with itself marked', async () => {
    const data = dataOf<{ you: string; members: { name: string; isLead: boolean }[] }>(await codex.call('list_members'));
    expect(data.you).toBe('codex');
    expect(data.members.map((m) => [m.name, m.isLead])).toEqual([['team-lead', true], ['codex', false]]);
  });

  it('reads a message the lead sent with the CLI, and marks it read on disk once the next read acknowledges it', async () => {
    expect((await cli('team', 'send', 'codex', 'Please review src/parse.ts', '--summary', 'review request')).code).toBe(0);
    const got = dataOf<{ messages: Msg[]; remaining: number }>(await codex.call('read_inbox'));
    expect(got.messages).toMatchObject([{ from: 'team-lead', text: 'Please review src/parse.ts', summary: 'review request' }]);
    expect(got.messages[0]).not.toHaveProperty('redelivered');
    expect(got.remaining).toBe(0);
    const handed = await readInbox({ root: openFsStores(dir.path), team: 'demo', agent: 'codex' });
    expect(handed.messages.map((m) => m.entry.read)).toEqual([false]); // handed out, not acknowledged yet
    expect(dataOf<{ messages: Msg[] }>(await codex.call('read_inbox')).messages).toEqual([]);
    const onDisk = await readInbox({ root: openFsStores(dir.path), team: 'demo', agent: 'codex' });
    expect(onDisk.messages.map((m) => m.entry.read)).toEqual([true]);
  });

  it('sends a reply the lead reads with the CLI', async () => {
    const sent = dataOf<{ sent: { to: string } }>(await codex.call('send_message', { to: 'team-lead', text: 'Reviewed: two bugs found', summary: 'review done' }));
    expect(sent.sent.to).toBe('team-lead');
    const inbox = await cli('inbox', 'team-lead', '--json');
    expect(inbox.code).toBe(0);
    expect(JSON.parse(inbox.stdout).messages).toMatchObject([{ entry: { from: 'codex', text: 'Reviewed: two bugs found', summary: 'review done', color: 'blue', read: false, type: 'message', msgV: 1 } }]);
  });

  it('works the task board with the lead', async () => {
    expect((await cli('task', 'add', 'Fix the parser bugs', '--description', 'Both of them')).code).toBe(0);
    const claimed = dataOf<{ task: { id: string; owner: string; status: string } }>(await codex.call('task_claim'));
    expect(claimed.task).toMatchObject({ id: '1', owner: 'codex', status: 'in_progress' });
    const created = dataOf<{ task: { id: string } }>(await codex.call('task_create', { subject: 'Add regression tests', blocked_by: [1] }));
    expect(created.task.id).toBe('2');
    expect(errorOf(await codex.call('task_update', { id: '2', status: 'completed' })).code).toBe('TASK_BLOCKED');
    dataOf(await codex.call('task_update', { id: 1, status: 'completed' }));
    const shown = JSON.parse((await cli('task', 'show', '2', '--json')).stdout);
    expect(shown).toMatchObject({ task: { id: '2', blockedBy: ['1'] }, blocked: false, ready: true });
    const mine = dataOf<{ tasks: { task: { id: string } }[] }>(await codex.call('task_list', { mine: true }));
    expect(mine.tasks.map((v) => v.task.id)).toEqual(['1']);
  });

  it('returns core errors as isError tool results with the MailroomError code', async () => {
    const unknown = errorOf(await codex.call('send_message', { to: 'nobody', text: 'hi' }));
    expect(unknown.code).toBe('MEMBER_NOT_FOUND');
    expect(unknown.message).toContain('nobody');
    expect(errorOf(await codex.call('task_get', { id: '99' })).code).toBe('TASK_NOT_FOUND');
    const bad = await codex.call('task_get', { id: 'abc' });
    expect(bad.isError).toBe(true);
  });

  it('exposes the team config and the task board as resources', async () => {
    const { resources } = await codex.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['mailroom://team/demo/config', 'mailroom://team/demo/tasks']);
    const config = await codex.client.readResource({ uri: 'mailroom://team/demo/config' });
    expect(JSON.parse(resourceText(config)).members.map((m: { name: string }) => m.name)).toEqual(['team-lead', 'codex']);
    const board = await codex.client.readResource({ uri: 'mailroom://team/demo/tasks' });
    expect(JSON.parse(resourceText(board)).tasks.map((v: { task: { id: string } }) => v.task.id)).toEqual(['1', '2']);
  });

  it('notifies a subscriber when the task board changes', async () => {
    const updated = new Promise<string>((resolve) => {
      codex.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri));
    });
    await codex.client.subscribeResource({ uri: 'mailroom://team/demo/tasks' });
    expect((await cli('task', 'add', 'Write the changelog')).code).toBe(0);
    expect(await updated).toBe('mailroom://team/demo/tasks');
  });

  it('answers a shutdown request echoing its id byte for byte; the lead completes the shutdown', async () => {
    const requestId = 'shutdown-1767225600000@codex "q" ✓ \\ tail';
    await sendStructured({ root: openFsStores(dir.path), team: 'demo', to: 'codex', message: { type: 'shutdown_request', requestId, reason: 'work is done' } });
    const got = dataOf<{ messages: Msg[] }>(await codex.call('wait_for_message', { timeout_ms: 10_000 }));
    expect(got.messages[0]).toMatchObject({ type: 'shutdown_request', message: { requestId, reason: 'work is done' } });
    const invented = errorOf(await codex.call('shutdown_response', { request_id: 'shutdown-1767225600000@codex', approve: true }));
    expect(invented.code).toBe('REQUEST_NOT_FOUND');
    expect(invented.message).toContain(JSON.stringify(requestId));
    expect((await readInbox({ root: openFsStores(dir.path), team: 'demo', unread: true })).messages.map((m) => m.parsed)).not.toContainEqual(
      expect.objectContaining({ kind: 'structured', message: expect.objectContaining({ type: 'shutdown_approved' }) }),
    );
    dataOf(await codex.call('shutdown_response', { request_id: requestId, approve: true }));
    const lead = await readInbox({ root: openFsStores(dir.path), team: 'demo', unread: true });
    const approval = lead.messages.at(-1)!.parsed;
    expect(approval).toMatchObject({ kind: 'structured', message: { type: 'shutdown_approved', requestId, from: 'codex' } });
    expect(approval.kind === 'structured' && approval.message).not.toHaveProperty('paneId');
    // codex left the roster before its approval was written (a lead deleting the team on it is not refused).
    expect((await showTeam({ root: openFsStores(dir.path), team: 'demo' })).members.map((m) => m.name)).toEqual(['team-lead']);
    expect(errorOf(await codex.call('shutdown_response', { request_id: requestId, approve: false })).code).toBe('MEMBER_NOT_FOUND');
    expect((await completeShutdown({ root: openFsStores(dir.path), team: 'demo', name: 'codex' })).removed).toBe(false);
  });
});
