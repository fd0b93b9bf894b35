/**
 * Hooks in the runtime (issue 13 item 2), real hook commands and a scripted teammate: a
 * TaskCompleted hook that exits 2 keeps the task in progress and its stderr reaches the model as
 * the TaskUpdate error; a TeammateIdle hook that exits 2 sends the teammate back to work with the
 * feedback instead of going idle; `{"continue": false}` stops the teammate.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addTask } from '../../../src/core/tasks/board.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { createScriptedModel } from '../../../src/runtime/models/scripted.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { openFsStores } from '../../../src/store/open.js';
import type { ModelRequest } from '../../../src/runtime/models/types.js';
import { until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
});
afterEach(() => dir.cleanup());

const hooksFile = (hooks: Record<string, string>) =>
  writeFile(join(dir.path, 'teams', 't', 'hooks.json'), JSON.stringify({ hooks: Object.fromEntries(Object.entries(hooks).map(([e, command]) => [e, [{ hooks: [{ type: 'command', command }] }]])) }));

/** Every text the model was given (user text blocks and tool results). */
function seen(requests: readonly ModelRequest[]): string {
  return JSON.stringify(requests.map((r) => r.messages));
}

it('a blocking TaskCompleted hook keeps the task in progress and the teammate reads the feedback', async () => {
  await addTask({ root: openFsStores(dir.path), team: 't', subject: 'Ship it' });
  await hooksFile({ TaskCompleted: 'echo "coverage is below 80%" >&2; exit 2' });
  const model = createScriptedModel({
    turns: [{ toolCalls: [{ name: 'TaskClaim', input: { taskId: '1' } }] }, { toolCalls: [{ name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } }] }, { text: 'I will add tests.' }],
  });
  const controller = new AbortController();
  const running = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: controller.signal });
  await until(() => model.requests.length >= 3, 10_000, 'the model to see the TaskUpdate result');
  controller.abort();
  await running;
  expect(seen(model.requests.slice(2))).toContain('coverage is below 80%');
  expect((await openFsStores(dir.path).team.readTask('t', '1'))).toMatchObject({ status: 'in_progress', owner: 'alice' });
});

it('a blocking TeammateIdle hook sends the teammate back to work with its feedback; then it goes idle', async () => {
  const once = join(dir.path, 'once');
  await hooksFile({ TeammateIdle: `test -e ${once} && exit 0; touch ${once}; echo "summarise before stopping" >&2; exit 2` });
  const model = createScriptedModel({ turns: [{ text: 'Working.' }, { text: 'Summary: done.' }] });
  await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'go' });
  const controller = new AbortController();
  const running = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: controller.signal, takesTasks: false });
  const idle = await until(async () => (await openFsStores(dir.path).team.readInbox('t', 'team-lead')).find((e) => e.text.includes('idle_notification')), 10_000, 'an idle notification');
  controller.abort();
  await running;
  expect(model.requests).toHaveLength(2);
  expect(seen(model.requests.slice(1))).toContain('summarise before stopping');
  expect(JSON.parse(idle.text)).toMatchObject({ result: 'Summary: done.' });
});

it('{"continue": false} from TeammateIdle stops the teammate with the stopReason', async () => {
  await hooksFile({ TeammateIdle: `echo '{"continue": false, "stopReason": "budget spent"}'` });
  const model = createScriptedModel({ turns: [{ text: 'Working.' }] });
  await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'go' });
  const exit = await runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, takesTasks: false });
  expect(exit).toEqual({ reason: 'hook', stopReason: 'budget spent' });
});
