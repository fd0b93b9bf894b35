/**
 * `mailroom agent <name>` in the foreground while the same teammate already runs as a recorded
 * process (`team spawn --backend process`) is refused with TEAMMATE_RUNNING (exit 4), as a second
 * `startProcessTeammate` is: two runtimes on one inbox would both answer every message.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FsStore } from '../../src/store/fs-store.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
});
afterEach(async () => {
  await mailroom(dir.path, 'team', 'stop', 'alice', '--force');
  await dir.cleanup();
});

it('refuses a foreground agent for a teammate whose process is alive', async () => {
  await mailroomOk(dir.path, 'team', 'spawn', 'alice', '--backend', 'process');
  const record = await new FsStore(dir.path).readProcessRecord('demo', 'alice');
  const run = await mailroom(dir.path, 'agent', 'alice');
  expect(run.code, run.stderr).toBe(4);
  expect(run.stderr).toContain('TEAMMATE_RUNNING');
  expect(run.stderr).toContain(String(record!.pid));
  expect(run.stdout).not.toContain('started');
});
