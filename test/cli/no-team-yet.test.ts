/**
 * A verb run against a store with no team says which store it looked in (new-user trial, session
 * 20: `HOME=<empty> mailroom task list` said "No team exists yet" with no path, where a named
 * team's TEAM_NOT_FOUND names it).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await dir.cleanup();
});

it('names the root it looked in, and how to point at another', async () => {
  const run = await mailroom(dir.path, 'task', 'list');
  expect(run.code).toBe(3);
  expect(run.stderr).toContain(`TEAM_NOT_FOUND: No team exists yet in ${dir.path}.`);
  expect(run.stderr).toContain('--root');
});
