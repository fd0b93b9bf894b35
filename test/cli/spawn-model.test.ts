/**
 * `team spawn --model` (fresh-user trial): a misspelt model kind was registered and, with the
 * process backend, reported as "Spawned bob … as process N" while the process had died at once.
 * The spec is checked before anything is written (every backend), and a process that exits during
 * its start-up is reported with its log's last lines and its registration rolled back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
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

async function memberNames(): Promise<string[]> {
  return (await openFsStores(dir.path).team.readConfig('demo')).members.map((m) => m.name);
}

describe.each([['in-process'], ['process']])('--backend %s', (backend) => {
  it.each([['wroker'], ['anthropic:'], ['gpt-4o']])('refuses --model %s before registering anything', async (model) => {
    const run = await mailroom(dir.path, 'team', 'spawn', 'bob', '--backend', backend, '--model', model, '--prompt', 'hi');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('INVALID_ARGUMENT');
    expect(run.stderr).toContain(model === 'anthropic:' ? 'needs a name' : 'worker, scripted, command, anthropic, openai');
    expect(run.stdout).toBe('');
    expect(await memberNames()).toEqual(['team-lead']);
    expect(await openFsStores(dir.path).team.listInboxes('demo')).not.toContain('bob');
  });
});

it('rolls back a process that exits during start-up, reporting its log, so a retry works', async () => {
  const missing = `${dir.path}/no-such-script.yaml`;
  const run = await mailroom(dir.path, 'team', 'spawn', 'bob', '--backend', 'process', '--model', `scripted:${missing}`, '--prompt', 'Summarise the notes');
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain('INVALID_ARGUMENT');
  expect(run.stderr).toContain('bob exited as it started');
  expect(run.stderr).toContain(missing);
  expect(run.stdout).toBe('');
  expect(await memberNames()).toEqual(['team-lead']);
  expect(await openFsStores(dir.path).host.readProcessRecord('demo', 'bob')).toBeUndefined();
  // The prompt was for a member that never ran: marked read, so a retry's member does not get two.
  expect(await openFsStores(dir.path).team.readInbox('demo', 'bob')).toMatchObject([{ text: 'Summarise the notes', read: true }]);

  const retry = await mailroom(dir.path, 'team', 'spawn', 'bob', '--backend', 'process', '--model', 'worker');
  expect(retry.code, retry.stderr).toBe(0);
  expect(retry.stdout).toMatch(/^Spawned bob \(bob@demo, \w+\) as process \d+; log: /);
  expect(await memberNames()).toEqual(['team-lead', 'bob']);
});
