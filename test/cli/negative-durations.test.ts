/**
 * A negative duration (new-user trial): `team send … --wait replied --timeout -5s` was read by
 * yargs as the short options -5 and -s (yargs reads a word beginning with "-" as options unless it
 * is a plain number: yargs-parser#33, yargs#1204), so the user got "unexpected argument "5"",
 * `--timeout -1h` was taken for a help group, and only `--timeout=-5s` named the option. Every
 * spelling on every duration option is now one USAGE error that names the option, says the value
 * is negative and gives the accepted forms, exit 2, nothing written.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk, snapshotBytes } from '../helpers/store-files.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'alice');
});
afterAll(() => dir.cleanup());

const CASES: [string, string, string[]][] = [
  ['--timeout', '-5s', ['team', 'send', 'alice', 'hi', '--wait', 'replied', '--timeout', '-5s']],
  ['--timeout', '-5s', ['team', 'send', 'alice', 'hi', '--wait', 'replied', '--timeout=-5s']],
  ['--timeout', '-5s', ['team', 'ask', 'alice', 'why?', '--timeout', '-5s']],
  ['--timeout', '-1h', ['team', 'ask', 'alice', 'why?', '--timeout', '-1h']],
  ['--timeout', '-.5s', ['team', 'ask', 'alice', 'why?', '--timeout', '-.5s']],
  ['--timeout', '-5', ['team', 'ask', 'alice', 'why?', '--timeout', '-5']],
  ['--timeout', '-1m', ['team', 'stop', 'alice', '--timeout', '-1m']],
  ['--shutdown-timeout', '-5s', ['run', 'team.yaml', '--shutdown-timeout', '-5s']],
  ['--poll-ms', '-50ms', ['agent', 'alice', '--poll-ms', '-50ms']],
];

it.each(CASES)('%s %s: one USAGE line naming the option, the value and the fix; nothing written (%j)', async (flag, value, args) => {
  const before = await snapshotBytes(dir.path);
  const run = await mailroom(dir.path, ...args);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toMatch(/^mailroom: USAGE: /);
  expect(run.stderr.match(/mailroom: /g), run.stderr).toHaveLength(1);
  expect(run.stderr).toContain(`${flag} ${value} is negative: give a duration such as 500ms, 30s or 2m`);
  expect(await snapshotBytes(dir.path)).toEqual(before);
}, 20_000);

it('--store-timeout -5s is refused as the store deadline it is, naming the option', async () => {
  const run = await mailroom(dir.path, '--store-timeout', '-5s', 'team', 'list');
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain('--store-timeout "-5s" is not a store deadline');
});
