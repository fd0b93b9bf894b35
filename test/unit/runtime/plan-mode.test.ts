/**
 * Plan mode (issue 13 item 1, `planModeRequired` as in Claude Code's config): the teammate plans
 * with read-only tools, sends the lead a plan_approval_request and waits; a denial sends it back to
 * planning with the lead's feedback, an approval lets it work with every tool.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { answerRequest, listRequests } from '../../../src/core/messages/approvals.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { createScriptedModel } from '../../../src/runtime/models/scripted.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { openFsStores } from '../../../src/store/open.js';
import { until } from '../../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 't' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice', planModeRequired: true });
});
afterEach(() => dir.cleanup());

const openPlan = async () => (await listRequests({ root: openFsStores(dir.path), team: 't' })).find((r) => r.kind === 'plan');

it('plans read-only, is sent back on a denial, and works once approved', async () => {
  const model = createScriptedModel({
    turns: [{ text: 'Plan: delete everything.' }, { text: 'Plan: add one task for the parser.' }, { toolCalls: [{ name: 'TaskCreate', input: { subject: 'Parser' } }] }, { text: 'Done.' }],
  });
  await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'build the parser' });
  const controller = new AbortController();
  const running = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: controller.signal, takesTasks: false });

  const first = await until(openPlan, 10_000, 'the first plan');
  expect(first.message).toMatchObject({ type: 'plan_approval_request', from: 'alice', planContent: 'Plan: delete everything.' });
  expect(model.requests[0]!.tools.map((t) => t.name).sort()).toEqual(['LeaseList', 'TaskGet', 'TaskList']); // the read-only tools
  await answerRequest({ root: openFsStores(dir.path), team: 't', requestId: first.id, approve: false, reason: 'never delete' });

  const second = await until(async () => ((await openPlan())?.id !== first.id ? openPlan() : undefined), 10_000, 'the revised plan');
  expect(second.message).toMatchObject({ planContent: 'Plan: add one task for the parser.' });
  expect(JSON.stringify(model.requests[1]!.messages)).toContain('did not approve your plan: never delete');
  expect(model.requests[1]!.tools.map((t) => t.name)).not.toContain('TaskCreate');
  await answerRequest({ root: openFsStores(dir.path), team: 't', requestId: second.id, approve: true, feedback: 'go' });

  await until(async () => (await openFsStores(dir.path).team.listTasks('t')).length === 1, 10_000, 'the task to be created');
  expect(JSON.stringify(model.requests[2]!.messages)).toContain('approved your plan: go');
  expect(model.requests[2]!.tools.map((t) => t.name)).toContain('TaskCreate');
  controller.abort();
  await running;
});
