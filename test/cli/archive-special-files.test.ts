/**
 * A FIFO or a device where the inbox archive belongs (`<root>/mailroom/archive/<team>/<agent>.ndjson`,
 * made by hand or a symlink to /dev/zero): `mailroom inbox --archive` blocked forever writing into
 * the FIFO while holding the inbox lock (and refreshing it, so no send could take it over), and
 * `mailroom inbox --all` read /dev/zero until the string limit (INTERNAL "Invalid string length").
 * Each is FILE_CORRUPT ("is not a regular file", exit 7) before anything is read or written, and the
 * inbox is left as it was.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Layout } from '../../src/store/fs/paths.js';
import { BIN, type CliRun } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { historyEntries, makeTeam, writeInboxFile } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
let inbox: string;
let archive: string;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-archive-special-');
  await makeTeam(tmp.path, 't', ['a']);
  // More than a pipe's buffer (64 KiB) of read history.
  inbox = await writeInboxFile(tmp.path, 't', 'team-lead', historyEntries(600));
  archive = new Layout(tmp.path).inboxArchivePath('t', 'team-lead');
  await mkdir(dirname(archive), { recursive: true });
});
afterEach(() => tmp.cleanup());

/** Runs the CLI, killed after 15 s (a hang is a failure, not a stuck suite). */
function cli(...args: string[]): Promise<CliRun & { killed: boolean }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, '--root', tmp.path, '--team', 't', ...args], { env: cleanEnv(), timeout: 15_000, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      const killed = err !== null && (err as { killed?: boolean }).killed === true;
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr, killed });
    });
  });
}

it('a FIFO as the archive: inbox --archive is FILE_CORRUPT at once, the inbox unchanged', async () => {
  execFileSync('mkfifo', [archive]);
  const before = await readFile(inbox, 'utf8');
  const run = await cli('inbox', '--archive');
  expect(run.killed, 'inbox --archive hung').toBe(false);
  expect(run.code, run.stderr).toBe(7);
  expect(run.stderr).toContain('FILE_CORRUPT');
  expect(run.stderr).toContain('is not a regular file');
  expect(await readFile(inbox, 'utf8')).toBe(before);
});

it('/dev/zero as the archive: inbox --all is FILE_CORRUPT, not INTERNAL after reading until the string limit', async () => {
  await symlink('/dev/zero', archive);
  const run = await cli('inbox', '--all');
  expect(run.killed, 'inbox --all hung').toBe(false);
  expect(run.code, run.stderr).toBe(7);
  expect(run.stderr).toContain('FILE_CORRUPT');
  expect(run.stderr).toContain('is not a regular file');
});
