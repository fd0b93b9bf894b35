/**
 * `team stop` says on stderr what it waits for, and warns when no `mailroom agent` process is
 * recorded for the teammate (nothing may answer: it will only be forced at the timeout).
 */
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { mailroom } from '../helpers/store-files.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-stop-wait-');
  await makeTeam(tmp.path, 't', ['dan']);
});
afterEach(() => tmp.cleanup());

describe('team stop while waiting', () => {
  it('names the request and the wait, and warns that no process is recorded', async () => {
    const run = await mailroom(tmp.path, 'team', 'stop', 'dan', '--timeout', '300');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^Asked dan to shut down \(shutdown-\d+@dan\); waiting up to 300 ms for the answer, then forcing\. No running `mailroom agent` process is recorded for dan/);
    expect(run.stderr).toContain('--force');
    expect(run.stdout).toBe('dan did not answer in time: stopped and left team t\n');
  });

  it('warns too when the recorded process is dead (a stale record)', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await openFsStores(tmp.path).host.writeProcessRecord('t', 'dan', { team: 't', agent: 'dan', pid: dead, startedAt: Date.now(), argv: ['mailroom', 'agent', 'dan'] });
    const run = await mailroom(tmp.path, 'team', 'stop', 'dan', '--timeout', '300');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('No running `mailroom agent` process is recorded for dan');
  });
});
