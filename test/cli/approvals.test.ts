/**
 * Approvals round trip (issue 13 item 1) with real processes: a teammate spawned
 * `--backend process --approve commands` asks the lead with a permission_request (Claude Code's
 * shape) before RunTaskCommand runs a task's command, and waits; `mailroom requests` lists it,
 * `mailroom approve` lets the command run, `mailroom deny --reason` refuses it and the teammate
 * gets the reason.
 */
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
});
afterEach(async () => {
  await mailroom(dir.path, 'team', 'stop', 'bob', '--force');
  await dir.cleanup();
});

interface ListedRequest {
  id: string;
  kind: string;
  from: string;
  summary: string;
  message: Record<string, unknown>;
}

async function openRequests(): Promise<ListedRequest[]> {
  return JSON.parse((await mailroomOk(dir.path, 'requests', '--json')).stdout) as ListedRequest[];
}

const exists = (path: string) => access(path).then(() => true, () => false);

/** A scripted teammate that claims task #1 and runs its command, then ends its turn. */
async function spawnScriptedBob(): Promise<void> {
  const script = join(dir.path, 'bob.yaml');
  await writeFile(script, ['- toolCalls: [{ name: TaskClaim, input: { taskId: "1" } }]', '- toolCalls: [{ name: RunTaskCommand, input: { taskId: "1" } }]', '- text: done', ''].join('\n'));
  await mailroomOk(dir.path, 'team', 'spawn', 'bob', '--backend', 'process', '--model', `scripted:${script}`, '--approve', 'commands', '--cwd', dir.path);
}

it('approve: the command runs only after the lead approves the permission_request', async () => {
  const marker = join(dir.path, 'ran.txt');
  await mailroomOk(dir.path, 'task', 'add', 'Write the marker', '--metadata', `command=echo ok > ${marker}`);
  await spawnScriptedBob();

  const [request] = await until(async () => {
    const open = await openRequests();
    return open.length > 0 ? open : undefined;
  }, 20_000, 'a permission request from bob');
  expect(request).toMatchObject({ kind: 'permission', from: 'bob', summary: expect.stringContaining(`echo ok > ${marker}`) });
  // Claude Code's permission_request shape (reference §4), so a Claude Code lead can answer it too.
  expect(request!.message).toMatchObject({ type: 'permission_request', agent_id: 'bob', tool_name: 'Bash', input: { command: `echo ok > ${marker}` }, permission_suggestions: [] });
  expect(request!.id).toMatch(/^perm-\d+-[0-9a-z]{7}$/);
  expect(await exists(marker)).toBe(false);

  const approved = await mailroom(dir.path, 'approve', request!.id, '--json');
  expect(approved.code, approved.stderr).toBe(0);
  expect(JSON.parse(approved.stdout)).toMatchObject({ approved: true, to: 'bob', message: { type: 'permission_response', request_id: request!.id, subtype: 'success', response: { updated_input: { command: `echo ok > ${marker}` }, permission_updates: [] } } });

  const store = openFsStores(dir.path);
  await until(async () => (await store.team.readTask('demo', '1'))?.metadata?.exitCode === 0, 20_000, 'task #1 command to run');
  expect(await exists(marker)).toBe(true);
  expect(await openRequests()).toEqual([]);
  // The answer was consumed by the waiting tool call, not delivered again to the model.
  const bobInbox = await store.team.readInbox('demo', 'bob');
  expect(bobInbox.find((e) => e.text.includes('permission_response'))).toMatchObject({ read: true });
  // Answering twice is refused with a clear error.
  const again = await mailroom(dir.path, 'approve', request!.id);
  expect(again.code).not.toBe(0);
  expect(again.stderr).toContain('REQUEST_NOT_FOUND');
  expect(again.stderr).toContain('answered already');
});

it('deny: the command never runs and the teammate gets the lead\'s reason', async () => {
  const marker = join(dir.path, 'ran.txt');
  await mailroomOk(dir.path, 'task', 'add', 'Write the marker', '--metadata', `command=echo ok > ${marker}`);
  // The worker model reports a refused RunTaskCommand to the lead with the tool's error text.
  await mailroomOk(dir.path, 'team', 'spawn', 'bob', '--backend', 'process', '--model', 'worker', '--approve', 'commands', '--cwd', dir.path);
  const [request] = await until(async () => {
    const open = await openRequests();
    return open.length > 0 ? open : undefined;
  }, 20_000, 'a permission request from bob');

  const noReason = await mailroom(dir.path, 'deny', request!.id);
  expect(noReason.code).not.toBe(0);
  expect(noReason.stderr).toContain('reason');

  const denied = await mailroom(dir.path, 'deny', request!.id, '--reason', 'not on this machine', '--json');
  expect(denied.code, denied.stderr).toBe(0);
  expect(JSON.parse(denied.stdout)).toMatchObject({ approved: false, message: { type: 'permission_response', request_id: request!.id, subtype: 'error', error: 'not on this machine' } });

  const store = openFsStores(dir.path);
  const report = await until(async () => (await store.team.readInbox('demo', 'team-lead')).find((e) => e.text.includes('Could not run the task')), 20_000, 'bob to report the refusal');
  expect(report.text).toContain('not on this machine');
  expect(report.text).toContain('approval.commands');
  expect(await exists(marker)).toBe(false);
  expect((await store.team.readTask('demo', '1'))?.metadata?.exitCode).toBeUndefined();
  expect(await openRequests()).toEqual([]);
});

it('lists nothing, and refuses an unknown id naming the fix', async () => {
  expect((await mailroomOk(dir.path, 'requests')).stdout).toContain('No open requests');
  const run = await mailroom(dir.path, 'approve', 'perm-1-abcdefg');
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('REQUEST_NOT_FOUND');
  expect(run.stderr).toMatch(/Run `mailroom .*requests` to list them/);
});
