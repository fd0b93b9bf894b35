/**
 * `mailroom run` whose members' model fails (`command:` naming a program that does not exist):
 * each member's failure is printed on stderr without --verbose, with the reason, and the report
 * counts the failed turns per member with the last reason. Before, the run printed nothing while it
 * waited out its timeout and the report only said "completed nothing".
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => (dir = await makeTempDir()));
afterEach(() => dir.cleanup());

const MODEL = 'command:mailroom-test-no-such-program';

async function teamFile(): Promise<string> {
  const file = join(dir.path, 'team.json');
  await writeFile(file, JSON.stringify({ team: 'broken', members: [{ name: 'ann' }, { name: 'ben' }], tasks: [{ subject: 'One', command: 'true' }] }));
  return file;
}

describe('mailroom run with a failing model', () => {
  it('prints each member\'s failed turn on stderr with the reason, and reports the failed turns', async () => {
    const file = await teamFile();
    const args = ['run', file, '--root', join(dir.path, 'root'), '--workdir', join(dir.path, 'work'), '--model', MODEL, '--timeout', '3000'];
    const text = await runCli(args, cleanEnv());
    expect(text.code).toBe(8);
    for (const name of ['ann', 'ben']) expect(text.stderr).toMatch(new RegExp(`${name}: turn failed: Model ${MODEL} failed: the program exited with code 127.*not found`));
    expect(text.stdout).toMatch(/ann \(command:[^)]*\): completed nothing, \d+ failed turns? \(last: Model command:mailroom-test-no-such-program failed: the program exited with code 127/);

    const json = await runCli([...args.map((a) => a.replace(join(dir.path, 'root'), join(dir.path, 'root2'))), '--json'], cleanEnv());
    expect(json.code).toBe(8);
    expect(json.stderr).toMatch(/ben: turn failed: .*code 127/);
    const report = JSON.parse(json.stdout) as { members: Array<{ name: string; failedTurns: number; lastFailure?: string }> };
    for (const m of report.members) {
      expect(m.failedTurns, m.name).toBeGreaterThan(0);
      expect(m.lastFailure).toMatch(/exited with code 127/);
    }
  });
});
