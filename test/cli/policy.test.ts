/**
 * Team policy (issue 13 item 3), one check on every surface: the CLI verbs (real binary), MCP tools
 * (real SDK client) and runtime tools (a scripted teammate) refuse with NOT_PERMITTED naming the
 * rule; default open; the lead is never refused and anyone may message the lead.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/runtime/models/scripted.js';
import { runTeammate } from '../../src/runtime/teammate.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { openFsStores } from '../../src/store/open.js';
import { errorOf, dataOf, startMcpMember } from '../helpers/mcp-client.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'alice');
  await mailroomOk(dir.path, 'team', 'spawn', 'bob');
});
afterEach(() => dir.cleanup());

const restrict = () => mailroomOk(dir.path, 'team', 'policy', '--allow', 'createTasks=alice', '--allow', 'message.*=@lead');

it('CLI verbs: open by default; refused by the named rule once set; the lead and messages to the lead pass', async () => {
  await mailroomOk(dir.path, 'task', 'add', 'Open board', '--as', 'bob');
  expect((await mailroomOk(dir.path, 'team', 'policy')).stdout).toContain('is open');
  await restrict();
  expect(JSON.parse((await mailroomOk(dir.path, 'team', 'policy', '--json')).stdout)).toEqual({ createTasks: ['alice'], message: { '*': ['@lead'] } });

  const add = await mailroom(dir.path, 'task', 'add', 'Sneaky', '--as', 'bob');
  expect(add.code).not.toBe(0);
  expect(add.stderr).toContain('NOT_PERMITTED');
  expect(add.stderr).toContain('policy.createTasks');
  const send = await mailroom(dir.path, 'team', 'send', 'alice', 'psst', '--as', 'bob', '--json');
  expect(send.code).not.toBe(0);
  expect(JSON.parse(send.stderr)).toMatchObject({ error: { code: 'NOT_PERMITTED', details: { rule: 'policy.message.*' } } });
  const broadcast = await mailroom(dir.path, 'team', 'broadcast', 'all hands', '--as', 'bob');
  expect(broadcast.stderr).toContain('policy.message.*');

  await mailroomOk(dir.path, 'task', 'add', 'Allowed', '--as', 'alice');
  await mailroomOk(dir.path, 'task', 'add', 'Lead', '--owner', 'bob');
  await mailroomOk(dir.path, 'team', 'send', 'team-lead', 'report', '--as', 'bob');
  const store = openFsStores(dir.path).team;
  expect((await store.listTasks('demo')).map((t) => t.subject)).toEqual(['Open board', 'Allowed', 'Lead']);
  expect((await store.readInbox('demo', 'alice')).map((e) => e.text)).not.toContain('psst');
  expect((await store.readEvents('demo')).events.filter((e) => e.kind === 'settings')).toMatchObject([{ changed: ['policy'] }]);

  await mailroomOk(dir.path, 'team', 'policy', '--open', 'createTasks');
  await mailroomOk(dir.path, 'task', 'add', 'Open again', '--as', 'bob');
});

it('MCP tools: the same rules refuse bob and let the lead through', async () => {
  await restrict();
  const bob = await startMcpMember(['--root', dir.path, '--team', 'demo', '--as', 'bob']);
  try {
    expect(errorOf(await bob.call('task_create', { subject: 'Sneaky' }))).toMatchObject({ code: 'NOT_PERMITTED', details: { rule: 'policy.createTasks', tool: 'task_create' } });
    expect(errorOf(await bob.call('send_message', { to: 'alice', text: 'psst' }))).toMatchObject({ code: 'NOT_PERMITTED', details: { rule: 'policy.message.*' } });
    expect(errorOf(await bob.call('send_message', { to: '*', text: 'all' }))).toMatchObject({ code: 'NOT_PERMITTED', details: { rule: 'policy.message.*', tool: 'broadcast' } });
    dataOf(await bob.call('send_message', { to: 'team-lead', text: 'report' }));
  } finally {
    await bob.close();
  }
  expect(await openFsStores(dir.path).team.listTasks('demo')).toEqual([]);
});

it('runtime tools: a teammate\'s TaskCreate is refused and the model reads the rule', async () => {
  await restrict();
  const model = createScriptedModel({ turns: [{ toolCalls: [{ name: 'TaskCreate', input: { subject: 'Sneaky' } }] }, { text: 'ok' }] });
  await sendMessage({ root: openFsStores(dir.path), team: 'demo', to: 'bob', text: 'make a task' });
  const controller = new AbortController();
  const running = runTeammate({ root: openFsStores(dir.path), team: 'demo', name: 'bob', model, signal: controller.signal, takesTasks: false });
  await until(() => model.requests.length >= 2, 10_000, 'the second model call');
  controller.abort();
  await running;
  expect(JSON.stringify(model.requests[1]!.messages)).toContain('policy.createTasks');
  expect(await openFsStores(dir.path).team.listTasks('demo')).toEqual([]);
});

it('task delete --as and team stop --as: the policy binds the named member at the CLI too', async () => {
  await mailroomOk(dir.path, 'task', 'add', 'Keep me');
  await mailroomOk(dir.path, 'team', 'policy', '--allow', 'deleteTasks=alice', '--allow', 'stopMembers=alice');
  const del = await mailroom(dir.path, 'task', 'delete', '1', '--as', 'bob', '--json');
  expect(del.code).not.toBe(0);
  expect(JSON.parse(del.stderr)).toMatchObject({ error: { code: 'NOT_PERMITTED', details: { rule: 'policy.deleteTasks' } } });
  const stop = await mailroom(dir.path, 'team', 'stop', 'alice', '--force', '--as', 'bob', '--json');
  expect(stop.code).not.toBe(0);
  expect(JSON.parse(stop.stderr)).toMatchObject({ error: { code: 'NOT_PERMITTED', details: { rule: 'policy.stopMembers' } } });
  const store = openFsStores(dir.path).team;
  expect((await store.listTasks('demo')).map((t) => t.subject)).toEqual(['Keep me']);
  expect((await store.readConfig('demo')).members.map((m) => m.name)).toContain('alice');

  await mailroomOk(dir.path, 'task', 'delete', '1', '--as', 'alice');
  expect(await store.listTasks('demo')).toEqual([]);
  await mailroomOk(dir.path, 'team', 'stop', 'bob', '--force', '--as', 'alice');
  expect((await store.readConfig('demo')).members.map((m) => m.name)).not.toContain('bob');
  const refused = (await store.readEvents('demo')).events.filter((e) => e.kind === 'refused');
  expect(refused).toMatchObject([
    { actor: 'bob', action: 'task.delete', rule: 'policy.deleteTasks' },
    { actor: 'bob', action: 'member.stop', rule: 'policy.stopMembers' },
  ]);
});
