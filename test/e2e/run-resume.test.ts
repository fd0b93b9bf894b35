/**
 * `mailroom run --resume` (issue 10 item 3): a team file that already ran is resumed instead of
 * refused with TEAM_EXISTS — its tasks are kept (none created again), its members that left at the
 * end of the first run are registered again and finish what is open.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await dir.cleanup();
});

describe('mailroom run --resume', () => {
  it('resumes a team that already ran: the open task is done, nothing is created twice', async () => {
    const file = join(dir.path, 'team.yaml');
    const work = join(dir.path, 'work');
    const tasks = [
      { key: 'ok', subject: 'Write a file', command: 'echo hello > hello.txt' },
      { key: 'later', subject: 'Needs a flag', command: 'test -f flag' },
    ];
    await writeFile(file, JSON.stringify({ team: 'again', members: [{ name: 'solo' }], tasks }));
    const root = join(dir.path, 'root');
    const args = ['run', file, '--root', root, '--workdir', work, '--json', '--shutdown-timeout', '20000'];
    const first = await runCli(args);
    expect(first.code).toBe(8);

    const refused = await runCli(args);
    expect(JSON.parse(refused.stderr).error.code).toBe('TEAM_EXISTS');
    // New-user trial, session 17: the refusal offered only `team delete`, never --resume.
    expect(JSON.parse(refused.stderr).error.message).toContain('run the same command with --resume');

    await writeFile(join(work, 'flag'), '');
    const resumed = await runCli([...args, '--resume']);
    expect(resumed.stderr).toContain('resuming team again; registered again: solo');
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout);
    expect(report.complete).toBe(true);
    const stored = await openFsStores(root).team.listTasks('again');
    expect(stored.map((t) => [t.id, t.status])).toEqual([
      ['1', 'completed'],
      ['2', 'completed'],
    ]);
  }, 90_000);
});
