/**
 * `doctor` on a store that is not there (new-user trial): with HOME fresh it said "No problems found
 * in ~/.mailroom", naming a directory that did not exist as if it had been checked. It now says the
 * store does not exist yet and how to create a team (exit 0: nothing is wrong), and creates nothing;
 * an existing store without a team says it holds none. `--json` has `exists` and `teams`.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanEnv, mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-doctor-no-store-');
});
afterEach(() => tmp.cleanup());

it('the default root under a fresh HOME: says it does not exist yet and how to create a team; creates nothing', async () => {
  const home = join(tmp.path, 'home');
  const run = await runCli(['doctor'], cleanEnv({ HOME: home }));
  expect(run.code, run.stderr).toBe(0);
  const root = join(home, '.mailroom');
  expect(run.stdout).toContain(`${root} does not exist yet: no team has been created there, so there is nothing to check.`);
  expect(run.stdout).toContain('Create a team with `mailroom team create <team>`');
  expect(run.stdout).not.toContain('No problems found');
  // (HOME may get Node's compile cache, ~/.cache: no store.)
  expect(await readdir(home).catch(() => [])).not.toContain('.mailroom');
});

it('--root naming a missing directory, --json: exists false, teams 0', async () => {
  const root = join(tmp.path, 'nowhere');
  const run = await mailroom(root, '--json', 'doctor');
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({ root, exists: false, teams: 0, problems: 0 });
  // The suggested command carries the --root the user gave.
  expect((await mailroom(root, 'doctor')).stdout).toContain(`\`mailroom --root ${root} team create <team>\``);
});

it('an existing store without a team: no problems, and it holds no team yet', async () => {
  const run = await mailroom(tmp.path, 'doctor');
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain(`No problems found in ${tmp.path}, which holds no team yet. Create a team with \`mailroom --root ${tmp.path} team create <team>\`.`);
});

it('a store with a team: the usual line, and --json counts the team', async () => {
  await mailroomOk(tmp.path, 'team', 'create', 'demo');
  expect((await mailroom(tmp.path, 'doctor')).stdout.trim()).toBe(`No problems found in ${tmp.path}`);
  expect(JSON.parse((await mailroom(tmp.path, '--json', 'doctor')).stdout)).toMatchObject({ exists: true, teams: 1 });
});
