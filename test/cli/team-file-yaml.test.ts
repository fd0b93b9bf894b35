/**
 * A team file that is no YAML is named in one line: the YAML error's sentence with its line and
 * column, then the docs to read. (New-user trial, session 18: the YAML library's code frame, blank
 * lines and a caret, came inside the message, and ". See docs/runtime.md" stood alone on the last
 * line.) Real CLI process; nothing is created.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;

beforeAll(async () => {
  dir = await makeTempDir('mailroom-team-yaml-');
});
afterAll(() => dir.cleanup());

describe('mailroom run on a team file that is no YAML', () => {
  it('one line naming the file, the YAML error and its position; exit 2; no store made', async () => {
    const file = join(dir.path, 'bad.yaml');
    await writeFile(file, 'name: [oops\n');
    const root = join(dir.path, 'root');
    const run = await runCli(['--root', root, 'run', file]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^mailroom: INVALID_ARGUMENT: Team file \S+bad\.yaml is invalid: [^\n]+ at line \d+, column \d+\. See docs\/runtime\.md "Team files"\.\n$/);
    expect(await readdir(dir.path)).toEqual(['bad.yaml']);
  });
});
