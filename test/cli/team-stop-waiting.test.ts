/**
 * `team stop` says on stderr what it waits for, and warns when no `mailroom agent` process is
 * recorded for the teammate (nothing may answer: it will only be forced at the timeout).
 */
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildMember } from '../../src/domain/roster.js';
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
  it('names the request and the wait, and warns that no process is recorded, for a member mailroom does not run', async () => {
    // A Claude Code member (no mailroom member record): its own client may answer, so it is asked.
    await openFsStores(tmp.path).team.addMember('t', buildMember({ name: 'cc', team: 't', model: 'x', cwd: tmp.path, joinedAt: Date.now() }));
    const run = await mailroom(tmp.path, 'team', 'stop', 'cc', '--timeout', '300');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^Asked cc to shut down \(shutdown-\d+@cc\); waiting up to 300 ms for the answer, then forcing\. No running `mailroom agent` process is recorded for cc/);
    expect(run.stderr).toContain('--force');
    expect(run.stdout).toBe('cc did not answer in time: stopped and left team t\n');
  });

  it('returns at once for a member mailroom registered that nothing runs, saying so, and asks nothing', async () => {
    const started = Date.now();
    const run = await mailroom(tmp.path, 'team', 'stop', 'dan', '--json');
    expect(run.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(JSON.parse(run.stdout)).toEqual({ name: 'dan', outcome: 'not-running', unassigned: [] });
    expect(await openFsStores(tmp.path).team.readInbox('t', 'dan')).toEqual([]);
    expect((await openFsStores(tmp.path).team.readConfig('t')).members.map((m) => m.name)).toEqual(['team-lead']);
  });

  it('also at once when its recorded process is dead (a stale record)', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await openFsStores(tmp.path).host.writeProcessRecord('t', 'dan', { team: 't', agent: 'dan', pid: dead, startedAt: Date.now(), argv: ['mailroom', 'agent', 'dan'] });
    const run = await mailroom(tmp.path, 'team', 'stop', 'dan');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('dan was not running (no heartbeat, no process), so it was not asked: removed and left team t\n');
  });
});
