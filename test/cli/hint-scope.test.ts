/**
 * An error's suggested next command, copied into a shell, acts on the store and team the failing
 * command used — not on ~/.mailroom.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom hint scope ');
});
afterEach(() => tmp.cleanup());

/** The last backticked `mailroom …` command in `stderr`, with the binary's path in place of `mailroom`. */
function suggestion(stderr: string): string {
  const command = [...stderr.matchAll(/`(mailroom [^`]+)`/g)].at(-1)?.[1];
  expect(command).toBeDefined();
  return `"${process.execPath}" "${BIN}"${(command as string).slice('mailroom'.length)}`;
}

describe('error hints carry --root and --team', () => {
  // A hint without --root would act on $HOME/.mailroom: keep that inside the temp dir too.
  const env = () => cleanEnv({ HOME: `${tmp.path}/home` });
  it('the suggested commands create the team and the member in the same root (a path with spaces)', async () => {
    const root = `${tmp.path}/my root`;
    const missing = await runCli(['--root', root, 'team', 'show', 'demo'], env());
    expect(missing.code).toBe(3);
    await promisify(execFile)('sh', ['-c', suggestion(missing.stderr)], { env: env() });

    const unknown = await runCli(['--root', root, '--team', 'demo', 'team', 'send', 'bob', 'hi'], env());
    expect(unknown.stderr).toContain('MEMBER_NOT_FOUND');
    await promisify(execFile)('sh', ['-c', suggestion(unknown.stderr)], { env: env() });

    const show = await runCli(['--root', root, '--team', 'demo', 'team', 'show', '--json'], env());
    expect(show.code).toBe(0);
    expect((JSON.parse(show.stdout) as { members: { name: string }[] }).members.map((m) => m.name)).toEqual(['team-lead', 'bob']);
  });
});
