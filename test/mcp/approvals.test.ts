/**
 * The lead's approval tools over MCP (real SDK client, real `mailroom mcp`): list_requests shows a
 * teammate's plan_approval_request and permission_request, approve_request / deny_request answer in
 * Claude Code's shapes, and a teammate calling them is refused (rule lead-only).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { dataOf, errorOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
const members: McpMember[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'bob');
  await mailroomOk(dir.path, 'team', 'send', 'team-lead', '--as', 'bob', '--structured', JSON.stringify({ type: 'plan_approval_request', planFilePath: '/tmp/plan.md', planContent: '1. refactor\n2. test' }));
  await mailroomOk(dir.path, 'team', 'send', 'team-lead', '--as', 'bob', '--structured', JSON.stringify({ type: 'permission_request', agent_id: 'bob', tool_name: 'Bash', tool_use_id: 'toolu_1', description: 'rm -rf build', input: { command: 'rm -rf build' }, permission_suggestions: [] }));
});
afterEach(async () => {
  for (const m of members.splice(0)) await m.close();
  await dir.cleanup();
});

async function member(as: string): Promise<McpMember> {
  const m = await startMcpMember(['--root', dir.path, '--team', 'demo', '--as', as]);
  members.push(m);
  return m;
}

it('the lead lists, approves and denies; the teammate gets Claude Code\'s responses', async () => {
  const lead = await member('team-lead');
  const { requests } = dataOf<{ requests: { id: string; kind: string; from: string; summary: string }[] }>(await lead.call('list_requests'));
  expect(requests.map((r) => [r.kind, r.from, r.summary])).toEqual([
    ['plan', 'bob', 'plan: 1. refactor'],
    ['permission', 'bob', 'Bash: rm -rf build'],
  ]);
  const [plan, perm] = requests;
  expect(dataOf(await lead.call('approve_request', { request_id: plan!.id, feedback: 'keep the API' }))).toMatchObject({ approved: true, to: 'bob', kind: 'plan' });
  expect(dataOf(await lead.call('deny_request', { request_id: perm!.id, reason: 'keep the build' }))).toMatchObject({ approved: false, kind: 'permission' });

  const answers = (await openFsStores(dir.path).team.readInbox('demo', 'bob')).map((e) => JSON.parse(e.text) as Record<string, unknown>).filter((m) => typeof m.type === 'string');
  expect(answers).toEqual([
    { type: 'plan_approval_response', requestId: plan!.id, approved: true, feedback: 'keep the API', timestamp: expect.any(String) },
    { type: 'permission_response', request_id: perm!.id, subtype: 'error', error: 'keep the build', tool_use_id: 'toolu_1' },
  ]);
  expect(dataOf<{ requests: unknown[] }>(await lead.call('list_requests')).requests).toEqual([]);
  expect(dataOf<{ requests: unknown[] }>(await lead.call('list_requests', { all: true })).requests).toHaveLength(2);
});

it('a teammate may not answer requests (NOT_PERMITTED, rule lead-only)', async () => {
  const bob = await member('bob');
  for (const [tool, args] of [['list_requests', {}], ['approve_request', { request_id: 'perm-1-abcdefg' }], ['deny_request', { request_id: 'perm-1-abcdefg', reason: 'no' }]] as const) {
    const error = errorOf(await bob.call(tool, args));
    expect(error.code).toBe('NOT_PERMITTED');
    expect(error.details).toMatchObject({ rule: 'lead-only', tool });
  }
});
