/**
 * `mailroom inbox --archive` moves the read head instead of listing, so the listing flags
 * (`--mark-read`, `--unread`, `--all`, `--status`, `--raw`) would be ignored: `--archive
 * --mark-read` exited 0 and marked nothing. Each is refused with USAGE (exit 2) naming both flags,
 * and nothing is written. Bad names for the inbox are MEMBER_NOT_FOUND (exit 3), nothing created.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';
import { historyEntries, makeTeam, writeInboxFile } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
let inbox: string;
let before: string;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-archive-flags-');
  await makeTeam(tmp.path, 't', ['a']);
  inbox = await writeInboxFile(tmp.path, 't', 'team-lead', [...historyEntries(3), ...historyEntries(2, { read: false, from: 'a', startMs: Date.parse('2026-02-01T00:00:00.000Z') })]);
  before = await readFile(inbox, 'utf8');
});
afterEach(() => tmp.cleanup());

const cli = (...args: string[]) => runCli(['--root', tmp.path, '--team', 't', 'inbox', ...args], cleanEnv());

async function nothingWritten(): Promise<void> {
  expect(await readFile(inbox, 'utf8')).toBe(before);
  expect(await readdir(join(tmp.path, 'mailroom'))).not.toContain('archive');
}

describe('inbox --archive with a listing flag', () => {
  for (const flag of ['--mark-read', '--unread', '--all', '--status', '--raw']) {
    it(`${flag}: USAGE naming both, nothing archived or marked`, async () => {
      const run = await cli('--archive', flag);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('USAGE');
      expect(run.stderr).toContain('--archive');
      expect(run.stderr).toContain(flag);
      await nothingWritten();
    });
  }
});

describe('inbox --archive with a bad name', () => {
  for (const name of ['../../etc/passwd', '..', '', 'x'.repeat(5000), 'a/b', 'team-lead/../team-lead']) {
    it(`${JSON.stringify(name.slice(0, 20))}: MEMBER_NOT_FOUND, nothing written`, async () => {
      const run = await cli(name, '--archive');
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain('MEMBER_NOT_FOUND');
      await nothingWritten();
    });
  }
});
