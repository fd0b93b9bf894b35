/**
 * `watch` counts the members on the roster (issue 23): a member that left is still listed (its
 * history), but the count says it apart — `2 members (1 left)`, not `3 members`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { cleanEnv, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
let child: LineChild | undefined;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-watch-left-');
  await mailroomOk(tmp.path, 'team', 'create', 'demo');
  await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
  await mailroomOk(tmp.path, 'team', 'spawn', 'bob');
  await mailroomOk(tmp.path, 'team', 'stop', 'bob');
});
afterAll(async () => {
  await child?.stop();
  await tmp.cleanup();
});

it('the first plain line counts the roster and says how many left', async () => {
  child = startCli(['--root', tmp.path, 'watch', 'demo'], cleanEnv());
  const ready = await child.waitForLine((l) => l.includes('watching team'));
  expect(ready).toMatch(/watching team demo: 2 members \(1 left\) \(team-lead \w+, alice \w+, bob \w+\), 0 tasks, 0 messages$/);
});
