/**
 * Where the runtime's tools and the MCP tools used to differ, each surface now does what the other
 * did (one handler): TaskCreate assigns an owner, TaskList filters by `mine`, TaskClaim honours
 * `busyCheck`, the runtime takes numeric task ids and refuses metadata keys like `__proto__`;
 * send_message broadcasts to "*" and answers a shutdown_request with a shutdown_response object,
 * and task_claim without an id takes the caller's own assigned task first. Results keep each
 * surface's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTask, createTeam, getTask, readInbox, requestShutdown, spawnMember } from '../../src/index.js';
import { dataOf, errorOf } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { runtimeJson, serveBothSurfaces, type Surfaces } from '../helpers/two-surfaces.js';
import { openFsStores } from '../../src/store/open.js';

const TEAM = 'parity';
let dir: TempDir;
let s: Surfaces;
const root = () => ({ root: openFsStores(dir.path), team: TEAM });

beforeAll(async () => {
  dir = await makeTempDir('mailroom-parity-');
  await createTeam(root());
  for (const name of ['alice', 'bob']) await spawnMember({ ...root(), name });
  await spawnMember({ ...root(), name: 'codex', model: 'unknown', modelIsLabel: true });
  s = await serveBothSurfaces({ root: dir.path, team: TEAM, runtimeAs: 'alice', mcpAs: 'codex' });
});
afterAll(async () => {
  await s?.close();
  await dir?.cleanup();
});

interface Task { id: string; subject: string; owner?: string; status: string }

describe('one handler per tool, on both surfaces', () => {
  it('TaskCreate takes an owner, who is sent a task_assignment, as task_create does', async () => {
    const task = runtimeJson<Task>(await s.runtime('TaskCreate', { subject: 'Write the parser', owner: 'bob' }));
    expect(task).toMatchObject({ subject: 'Write the parser', owner: 'bob', status: 'pending' });
    const bob = await readInbox({ ...root(), agent: 'bob' });
    expect(bob.messages.map((m) => m.parsed)).toContainEqual(expect.objectContaining({ kind: 'structured', message: expect.objectContaining({ type: 'task_assignment', taskId: task.id, assignedBy: 'alice' }) }));
    const overMcp = dataOf<{ task: Task }>(await s.mcp.call('task_create', { subject: 'Review it', owner: 'bob' }));
    expect(overMcp.task).toMatchObject({ owner: 'bob' });
  });

  it('the runtime takes numeric task ids and refuses metadata keys that name object internals', async () => {
    expect(runtimeJson<Task>(await s.runtime('TaskGet', { taskId: 1 }))).toMatchObject({ id: '1', subject: 'Write the parser', ready: false });
    const bad = await s.runtime('TaskCreate', { subject: 'x', metadata: JSON.parse('{"__proto__": {"polluted": true}}') });
    expect(bad).toMatchObject({ isError: true });
    expect(String(bad.content)).toContain('the key "__proto__" cannot be used in metadata');
  });

  it('TaskList filters to the caller\'s own tasks with mine, as task_list does', async () => {
    await addTask({ ...root(), subject: 'Alice owns this', owner: 'alice' });
    const mine = runtimeJson<Task[]>(await s.runtime('TaskList', { mine: true }));
    expect(mine.map((t) => t.subject)).toEqual(['Alice owns this']);
    const codexMine = dataOf<{ tasks: unknown[] }>(await s.mcp.call('task_list', { mine: true }));
    expect(codexMine.tasks).toEqual([]);
  });

  it('task_claim without an id takes the caller\'s own assigned task before the lowest ready one, as TaskClaim does', async () => {
    await addTask({ ...root(), subject: 'Unowned and ready' });
    const assigned = await addTask({ ...root(), subject: 'For codex', owner: 'codex' });
    const claimed = dataOf<{ task: Task }>(await s.mcp.call('task_claim'));
    expect(claimed.task).toMatchObject({ id: assigned.id, owner: 'codex', status: 'in_progress' });
    const viaRuntime = runtimeJson<{ claimed: Task }>(await s.runtime('TaskClaim', {}));
    expect(viaRuntime.claimed).toMatchObject({ subject: 'Alice owns this', owner: 'alice', status: 'in_progress' });
  });

  it('TaskClaim refuses with busyCheck while the caller owns an open task, as task_claim does', async () => {
    const busy = await s.runtime('TaskClaim', { busyCheck: true });
    expect(busy).toMatchObject({ isError: true });
    expect(String(busy.content)).toContain('(reason: agent_busy)');
    expect(errorOf(await s.mcp.call('task_claim', { busy_check: true })).code).toBe('AGENT_BUSY');
    const unowned = (await getTask({ ...root(), id: '4' })).task;
    expect(unowned).toMatchObject({ subject: 'Unowned and ready', status: 'pending' });
    expect(unowned.owner).toBeUndefined();
  });

  it('send_message to "*" broadcasts, as SendMessage does, with each surface\'s result shape', async () => {
    const overMcp = dataOf<{ sent: { to: string; msg_id: string }[] }>(await s.mcp.call('send_message', { to: '*', text: 'Standup in 5', summary: 'standup' }));
    expect(overMcp.sent.map((x) => x.to).sort()).toEqual(['alice', 'bob', 'team-lead']);
    expect(overMcp.sent.every((x) => typeof x.msg_id === 'string')).toBe(true);
    expect(runtimeJson(await s.runtime('SendMessage', { to: '*', message: 'On my way' }))).toEqual({ sent: expect.arrayContaining(['bob', 'codex', 'team-lead']) });
    const bob = await readInbox({ ...root(), agent: 'bob' });
    expect(bob.messages.filter((m) => m.parsed.kind === 'plain').map((m) => [m.entry.from, m.entry.text])).toEqual([['codex', 'Standup in 5'], ['alice', 'On my way']]);
  });

  it('send_message answers a shutdown_request with a shutdown_response object, as SendMessage does', async () => {
    const { requestId } = await requestShutdown({ ...root(), to: 'codex', reason: 'wrapping up' });
    const response = { type: 'shutdown_response', request_id: requestId, approve: false, reason: 'still claiming' };
    const answered = dataOf<{ approved: boolean; request_id: string; sent: { to: string } }>(await s.mcp.call('send_message', { to: 'team-lead', text: response }));
    expect(answered).toMatchObject({ approved: false, request_id: requestId, sent: { to: 'team-lead' } });
    const lead = await readInbox({ ...root(), agent: 'team-lead' });
    expect(lead.messages.at(-1)?.parsed).toMatchObject({ kind: 'structured', message: { type: 'shutdown_rejected', requestId, from: 'codex', reason: 'still claiming' } });
  });
});
