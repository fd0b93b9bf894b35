/**
 * A denied command lands somewhere sensible (issue 23): the lead's `mailroom deny` puts the task
 * back to `pending`, assigned to the lead that denied it (no teammate is offered it again, so the
 * lead is not asked again), with `metadata.commandDenied` {by, reason, requestId, at}; the
 * teammate's idle_notification names that task as failed with the lead's reason.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { parseMessageText } from '../../src/protocol/structured.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('mailroom-denied-');
  await mailroomOk(dir.path, 'team', 'create', 'demo');
});
afterEach(async () => {
  await mailroom(dir.path, 'team', 'stop', 'bob', '--force');
  await dir.cleanup();
});

it('deny: the task goes back to pending with the lead, and the idle notice names it with the reason', async () => {
  await mailroomOk(dir.path, 'task', 'add', 'Risky', '--metadata', 'command=echo risky');
  await mailroomOk(dir.path, 'team', 'spawn', 'bob', '--backend', 'process', '--model', 'worker', '--approve', 'commands', '--cwd', dir.path);
  const request = await until(async () => {
    const open = JSON.parse((await mailroomOk(dir.path, 'requests', '--json')).stdout) as Array<{ id: string }>;
    return open[0];
  }, 30_000, 'a permission request from bob');
  await mailroomOk(dir.path, 'deny', request.id, '--reason', 'not on this machine');

  const store = openFsStores(dir.path);
  const idle = await until(async () => {
    const entries = await store.team.readInbox('demo', 'team-lead');
    return entries.map((e) => parseMessageText(e.text)).find((p) => p.kind === 'structured' && p.message.type === 'idle_notification');
  }, 30_000, 'bob idle');
  expect(idle.kind === 'structured' && idle.message).toMatchObject({ completedTaskId: '1', completedStatus: 'failed', failureReason: expect.stringContaining('not on this machine') });
  const task = await store.team.readTask('demo', '1');
  expect(task).toMatchObject({ status: 'pending', owner: 'team-lead', metadata: { commandDenied: { by: 'team-lead', reason: 'not on this machine', requestId: request.id } } });
  expect(task?.metadata?.exitCode).toBeUndefined();
  // Nobody is asked again: no new request while bob idles.
  const shown = await mailroomOk(dir.path, 'task', 'show', '1');
  expect(shown.stdout).toContain('not on this machine');
  expect(JSON.parse((await mailroomOk(dir.path, 'requests', '--json')).stdout)).toEqual([]);
}, 120_000);
