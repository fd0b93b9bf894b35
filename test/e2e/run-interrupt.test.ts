/**
 * Ctrl-C (SIGINT) or SIGTERM during `mailroom run`: the run stops waiting, forces every teammate to
 * stop (their running task commands, in their own process groups, are killed with them), tears the
 * members down (open tasks back to pending, unowned), prints the report and exits 8. Before, the
 * process died at once and left the commands running as orphans and the members registered.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { sleep } from '../../src/store/fs/lock.js';
import { cleanEnv } from '../helpers/store-files.js';
import { startCli } from '../helpers/line-child.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
let commandPids: number[] = [];
beforeEach(async () => (dir = await makeTempDir()));
afterEach(async () => {
  for (const pid of commandPids.filter(alive)) process.kill(pid, 'SIGKILL'); // only if the run left them behind
  commandPids = [];
  await dir.cleanup();
});

/**
 * The pid a task command wrote to `path`, once the whole line is there: the shell creates the file
 * (empty) before `echo` writes to it, and Number('') is 0, which would make `alive` and the cleanup's
 * kill act on this whole process group.
 */
async function pidFile(path: string): Promise<number> {
  for (;;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (/^[1-9][0-9]*\n$/.test(text)) return Number(text);
    await sleep(50);
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`not a process id: ${pid}`);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.each(['SIGINT', 'SIGTERM'] as const)('mailroom run stopped with %s', (signal) => {
  it('kills the running task commands, tears the members down, reports and exits 8', async () => {
    const work = join(dir.path, 'work');
    const file = join(dir.path, 'team.json');
    const command = 'echo $$ > "$MAILROOM_TASK_ID.pid"; exec sleep 300';
    await writeFile(file, JSON.stringify({ team: 'slow', members: [{ name: 'a' }, { name: 'b' }], tasks: [{ subject: 'One', command }, { subject: 'Two', command }] }));
    const root = join(dir.path, 'root');
    const run = startCli(['run', file, '--root', root, '--workdir', work], cleanEnv());
    const pids = await Promise.all(['1', '2'].map((id) => pidFile(join(work, `${id}.pid`))));
    commandPids = pids;
    expect(pids.every(alive)).toBe(true);
    run.proc.kill(signal);
    expect(await run.exited).toBe(8);
    expect(run.stderr()).toContain('RUN_INCOMPLETE');
    expect(run.stderr()).toMatch(/interrupt/i);
    expect(run.lines().join('\n')).toContain('Shutdown: a forced, b forced');
    expect(pids.filter(alive)).toEqual([]);
    const store = openFsStores(root);
    expect(await store.host.listCommandRecords()).toEqual([]); // each record went with its command
    expect((await store.team.readConfig('slow')).members.map((m) => m.name)).toEqual(['team-lead']);
    expect((await store.team.listTasks('slow')).map((t) => [t.status, t.owner])).toEqual([
      ['pending', undefined],
      ['pending', undefined],
    ]);
  });
});
