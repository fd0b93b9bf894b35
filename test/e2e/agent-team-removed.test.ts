/**
 * `mailroom agent` exits when its team directory is removed (issue 10 item 5): Claude Code removes
 * `teams/<team>` at TeamDelete and at session exit (2.1.332: renamed to a `*.deleted-<uuid>`
 * tombstone first). A real agent process is started and the directory removed each way; the
 * process must end, not keep a watch open.
 */
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/runtime/process/kill.js';
import { spawnProcessTeammate } from '../../src/runtime/process/spawn.js';
import { until } from '../helpers/runtime.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

let dir: TempDir | undefined;
const pids: number[] = [];
afterEach(async () => {
  for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir?.cleanup();
});

/**
 * `rm -rf` as a user's shell or Claude Code does it. The running agent may write into the
 * directory while it is being removed (ENOTEMPTY at its rmdir, seen once in a full run); Node's
 * rm retries that, as `rm -rf` would be run again.
 */
const RM = { recursive: true, force: true, maxRetries: 10, retryDelay: 20 } as const;

const REMOVALS: Record<string, (root: string) => Promise<void>> = {
  'the team directory removed': (root) => rm(join(root, 'teams', 't'), RM),
  'renamed to a tombstone, then removed (Claude Code 2.1.332)': async (root) => {
    await rename(join(root, 'teams', 't'), join(root, 'teams', 't.deleted-0b7e1c52-9d0f-4a7e-8a51-1f2d3c4b5a69'));
    await rm(join(root, 'teams', 't.deleted-0b7e1c52-9d0f-4a7e-8a51-1f2d3c4b5a69'), RM);
  },
  'team and task directories removed (TeamDelete)': async (root) => {
    await rm(join(root, 'teams', 't'), RM);
    await rm(join(root, 'tasks', 't'), RM);
  },
};

describe('mailroom agent when its team is removed', () => {
  for (const [how, remove] of Object.entries(REMOVALS)) {
    it(`exits: ${how}`, async () => {
      dir = await makeTempDir();
      await makeTeam(dir.path, 't');
      const { process: started } = await spawnProcessTeammate({ root: openFsStores(dir.path), team: 't', name: 'bob', cwd: dir.path });
      pids.push(started.pid);
      await remove(dir.path);
      await until(() => !isAlive(started.pid), 15_000, `the agent process ${started.pid} to exit`);
      expect(isAlive(started.pid)).toBe(false);
    }, 30_000);
  }
});
