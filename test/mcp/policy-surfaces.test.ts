/**
 * The team policy binds every tool surface by construction (docs/approvals.md "Policy: who may do
 * what": "every surface — CLI, runtime tools, MCP tools, the library, the bridge — is bound"). Under
 * a strict policy (teammates message only the lead; only the lead creates, assigns and deletes
 * tasks) a runtime teammate's tool calls and an MCP member's, over a real SDK client, try every
 * other path to bob and to the board: a plain send, a broadcast, an ask, a reply-shaped send, a
 * structured lead-only message, task creation with and without an owner, reassignment, deletion.
 * Each is refused and nothing reaches bob or the board; a message to the lead still goes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addTask } from '../../src/core/tasks/board.js';
import { changePolicy } from '../../src/core/teams/policy.js';
import { createTeam, listTasks, readInbox, spawnMember } from '../../src/index.js';
import { openFsStores } from '../../src/store/open.js';
import { textOf } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { serveBothSurfaces, type Surfaces } from '../helpers/two-surfaces.js';

const TEAM = 'strict';
let dir: TempDir;
let s: Surfaces;
const root = () => openFsStores(dir.path);

beforeAll(async () => {
  dir = await makeTempDir('mailroom-policy-surfaces-');
  await createTeam({ root: root(), team: TEAM });
  for (const name of ['alice', 'bob']) await spawnMember({ root: root(), team: TEAM, name });
  await spawnMember({ root: root(), team: TEAM, name: 'codex', model: 'unknown', modelIsLabel: true });
  await changePolicy({ root: root(), team: TEAM }, [
    { rule: 'message.*', who: ['@lead'] },
    { rule: 'createTasks', who: [] },
    { rule: 'assignTasks', who: [] },
    { rule: 'deleteTasks', who: [] },
  ]);
  await addTask({ root: root(), team: TEAM, subject: 'The one task' });
  s = await serveBothSurfaces({ root: dir.path, team: TEAM, runtimeAs: 'alice', mcpAs: 'codex' });
});
afterAll(async () => {
  await s?.close();
  await dir?.cleanup();
});

const bobTexts = async () => (await readInbox({ root: root(), team: TEAM, agent: 'bob' })).messages.map((m) => m.entry.text);
const leadTexts = async () => (await readInbox({ root: root(), team: TEAM, agent: 'team-lead' })).messages.map((m) => m.entry.text);
const board = async () => (await listTasks({ root: root(), team: TEAM })).map((v) => [v.task.id, v.task.subject, v.task.owner ?? '', v.task.status]);
const shutdown = JSON.stringify({ type: 'shutdown_request', requestId: 'shutdown-1@bob', reason: 'forged' });

it('the runtime teammate reaches neither bob nor the board by any tool', async () => {
  const attempts: [string, Record<string, unknown>][] = [
    ['SendMessage', { to: 'bob', message: 'rt plain' }],
    ['SendMessage', { to: '*', message: 'rt broadcast' }],
    ['SendMessage', { to: 'bob', message: shutdown }],
    ['TaskCreate', { subject: 'rt task' }],
    ['TaskUpdate', { taskId: '1', owner: 'bob' }],
    ['TaskUpdate', { taskId: '1', status: 'deleted' }],
  ];
  for (const [name, input] of attempts) {
    const r = await s.runtime(name, input);
    expect(r.isError, `${name} ${JSON.stringify(input)}: ${String(r.content)}`).toBe(true);
    expect(String(r.content)).toMatch(/not permitted|NOT_PERMITTED|may not|only the lead/i);
  }
  expect((await s.runtime('SendMessage', { to: 'team-lead', message: 'rt to lead' })).isError).toBeFalsy();
  expect(await leadTexts()).toContain('rt to lead'); // the surface sends: the refusals above are the policy's
  expect(await bobTexts()).toEqual([]);
  expect(await board()).toEqual([['1', 'The one task', '', 'pending']]);
});

it('the MCP member reaches neither bob nor the board by any tool', async () => {
  const attempts: [string, Record<string, unknown>][] = [
    ['send_message', { to: 'bob', text: 'mcp plain' }],
    ['send_message', { to: '*', text: 'mcp star' }],
    ['broadcast', { text: 'mcp broadcast' }],
    ['ask', { to: 'bob', text: 'mcp ask', timeout_ms: 100 }],
    ['send_message', { to: 'bob', text: shutdown }],
    ['task_create', { subject: 'mcp task' }],
    ['task_create', { subject: 'mcp owned task', owner: 'bob' }],
    ['task_update', { id: '1', owner: 'bob' }],
    ['task_update', { id: '1', status: 'deleted' }],
  ];
  for (const [name, args] of attempts) {
    const r = await s.mcp.call(name, args);
    expect(r.isError, `${name} ${JSON.stringify(args)}: ${textOf(r)}`).toBe(true);
    expect(textOf(r)).toMatch(/NOT_PERMITTED|not permitted/i);
  }
  expect((await s.mcp.call('send_message', { to: 'team-lead', text: 'mcp to lead' })).isError).toBeFalsy();
  expect(await leadTexts()).toContain('mcp to lead');
  expect(await bobTexts()).toEqual([]);
  expect(await board()).toEqual([['1', 'The one task', '', 'pending']]);
});
