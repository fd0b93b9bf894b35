/**
 * `task update` with dependency changes and field changes validates everything before its first
 * write (issue 20 step 4): it used to unlink, then link, then patch, so a patch refused with
 * TASK_BLOCKED (or TASK_CYCLE on a later edge) left the links already changed.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { addTask, getTask } from '../../../../src/core/tasks/board.js';
import { updateTask } from '../../../../src/core/tasks/update.js';
import { createTeam } from '../../../../src/core/teams/team-lifecycle.js';
import { makeTempDir, type TempDir } from '../../../helpers/temp-dir.js';
import { openFsStores } from '../../../../src/store/open.js';

let dir: TempDir;
const o = () => ({ root: openFsStores(dir.path), team: 't' });
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam(o());
  for (const subject of ['one', 'two', 'three']) await addTask({ ...o(), subject, description: '' });
});
afterEach(() => dir.cleanup());

const links = async (id: string) => {
  const { task: t } = await getTask({ ...o(), id });
  return { blocks: t.blocks, blockedBy: t.blockedBy, status: t.status };
};

it('leaves the links unchanged when the patch is refused with TASK_BLOCKED', async () => {
  await updateTask({ ...o(), id: '3', addBlockedBy: ['1'] });
  const before = await Promise.all(['1', '2', '3'].map(links));
  // #3 stays blocked by #1 (open): starting it is refused, so #2 must not become its blocker, nor #1 stop being one.
  await expect(updateTask({ ...o(), id: '3', addBlockedBy: ['2'], status: 'in_progress' })).rejects.toMatchObject({ code: 'TASK_BLOCKED' });
  await expect(updateTask({ ...o(), id: '3', removeBlockedBy: ['1'], addBlockedBy: ['2'], status: 'completed' })).rejects.toMatchObject({ code: 'TASK_BLOCKED' });
  expect(await Promise.all(['1', '2', '3'].map(links))).toEqual(before);
});

it('leaves the links unchanged when an added edge would close a cycle', async () => {
  await updateTask({ ...o(), id: '2', addBlockedBy: ['1'] });
  await updateTask({ ...o(), id: '3', addBlockedBy: ['1'] });
  const before = await Promise.all(['1', '2', '3'].map(links));
  // The removal (#1 no longer blocks #3) is allowed; the addition (#1 blocked by #2, which #1 blocks) is a cycle.
  await expect(updateTask({ ...o(), id: '1', removeBlocks: ['3'], addBlockedBy: ['2'] })).rejects.toMatchObject({ code: 'TASK_CYCLE' });
  expect(await Promise.all(['1', '2', '3'].map(links))).toEqual(before);
});

it('still applies links and fields together when every part is allowed', async () => {
  const done = await updateTask({ ...o(), id: '2', addBlockedBy: ['1'], removeBlockedBy: ['3'], subject: 'renamed' });
  expect(done.task).toMatchObject({ subject: 'renamed', blockedBy: ['1'] });
  expect((await links('1')).blocks).toEqual(['2']);
});
