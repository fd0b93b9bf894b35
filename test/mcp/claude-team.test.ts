/**
 * `mailroom mcp --claude` on a team written by the real Claude Code 2.1.109 (snapshot
 * 3-teammate-idle, copied to a temp dir): joining adds one member and leaves every existing field
 * of config, inboxes and tasks intact; messages and claims land in Claude Code's format.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/index.js';
import { dataOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { copyToTempDir, type TempDir } from '../helpers/temp-dir.js';
import { REFERENCE_2_1_109 } from '../helpers/store-files.js';
import { openFsStores } from '../../src/store/open.js';

const SNAPSHOT = join(REFERENCE_2_1_109, '3-teammate-idle');

describe('mailroom mcp --claude on a Claude Code 2.1.109 team', () => {
  let dir: TempDir;
  let codex: McpMember | undefined;
  const read = async (rel: string) => JSON.parse(await readFile(join(dir.path, rel), 'utf8'));
  const original = (rel: string) => readFile(join(SNAPSHOT, rel), 'utf8').then((t) => JSON.parse(t));

  beforeEach(async () => {
    dir = await copyToTempDir(SNAPSHOT, 'mailroom-mcp-claude-');
  });
  afterEach(async () => {
    await codex?.close();
    codex = undefined;
    await dir.cleanup();
  });

  it('joins as a new member and keeps every existing config field', async () => {
    codex = await startMcpMember(['--claude', '--root', dir.path, '--team', 'compat', '--as', 'codex']);
    const before = await original('teams/compat/config.json');
    const after = await read('teams/compat/config.json');
    expect(after.members.slice(0, 2)).toEqual(before.members);
    expect({ ...after, members: undefined }).toEqual({ ...before, members: undefined });
    expect(after.members[2]).toMatchObject({ agentId: 'codex@compat', name: 'codex', tmuxPaneId: '', color: 'green' });
    expect(after.members[2]).not.toHaveProperty('backendType');
    const data = dataOf<{ members: { name: string }[] }>(await codex.call('list_members'));
    expect(data.members.map((m) => m.name)).toEqual(['team-lead', 'observer', 'codex']);
  });

  it('messages the Claude Code lead by appending, and reads what the lead sends', async () => {
    codex = await startMcpMember(['--claude', '--root', dir.path, '--team', 'compat', '--as', 'codex']);
    dataOf(await codex.call('send_message', { to: 'team-lead', text: 'codex here, ready for work', summary: 'codex is ready' }));
    const lead = await read('teams/compat/inboxes/team-lead.json');
    expect(lead[0]).toEqual((await original('teams/compat/inboxes/team-lead.json'))[0]);
    expect(lead[1]).toMatchObject({ from: 'codex', text: 'codex here, ready for work', summary: 'codex is ready', color: 'green', read: false, type: 'message', msgV: 1 });
    expect(await read('teams/compat/inboxes/observer.json')).toEqual(await original('teams/compat/inboxes/observer.json'));

    await sendMessage({ root: openFsStores(dir.path), team: 'compat', to: 'codex', text: 'Take task 2 please' });
    const got = dataOf<{ messages: { from: string; text: string }[] }>(await codex.call('read_inbox'));
    expect(got.messages).toMatchObject([{ from: 'team-lead', text: 'Take task 2 please' }]);
  });

  it('claims the next ready task and keeps the task file fields', async () => {
    codex = await startMcpMember(['--claude', '--root', dir.path, '--team', 'compat', '--as', 'codex']);
    const claimed = dataOf<{ task: { id: string } }>(await codex.call('task_claim'));
    expect(claimed.task.id).toBe('2');
    const before = await original('tasks/compat/2.json');
    expect(await read('tasks/compat/2.json')).toEqual({ ...before, owner: 'codex', status: 'in_progress', fencingToken: expect.any(Number) });
    expect(await read('tasks/compat/1.json')).toEqual(await original('tasks/compat/1.json'));
  });

  it('resolves the root from CLAUDE_CONFIG_DIR with --claude alone, and reuses an existing member', async () => {
    codex = await startMcpMember(['--claude', '--team', 'compat', '--as', 'observer'], { CLAUDE_CONFIG_DIR: dir.path });
    expect(codex.stderr()).toContain('acting as observer@compat');
    expect(await read('teams/compat/config.json')).toEqual(await original('teams/compat/config.json'));
    const got = dataOf<{ messages: { type?: string }[] }>(await codex.call('read_inbox'));
    expect(got.messages.map((m) => m.type)).toEqual(['task_assignment']);
  });
});
