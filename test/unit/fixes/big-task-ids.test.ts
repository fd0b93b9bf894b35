/**
 * Issue 15, "on the way": task ids past 2^53 were sorted with `Number()` in core/live/tracker.ts and
 * core/live/tracker-diff.ts, where 9007199254740992 and 9007199254740993 are the same number: `watch`
 * showed and reported them in whatever order they were read. They are decimal strings, compared
 * exactly (domain `compareTaskIds`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { TeamTracker } from '../../../src/core/live/tracker.js';
import { diffSnapshots } from '../../../src/core/live/tracker-diff.js';
import { compareTaskIds } from '../../../src/domain/task-board.js';
import type { Task } from '../../../src/protocol/task.js';
import { Layout } from '../../../src/store/fs/paths.js';
import { buildSnapshot } from '../../../src/core/live/snapshot.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { openFsStores } from '../../../src/store/open.js';

const LOW = '9007199254740992';
const HIGH = '9007199254740993';
const task = (id: string): Task => ({ id, subject: `task ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [] });

describe('task ids past 2^53', () => {
  it('compare exactly', () => {
    expect(Number(LOW)).toBe(Number(HIGH));
    expect(compareTaskIds(LOW, HIGH)).toBeLessThan(0);
    expect([HIGH, '10', LOW, '9'].sort(compareTaskIds)).toEqual(['9', '10', LOW, HIGH]);
  });

  it('are reported in id order by the snapshot diff', () => {
    const empty = buildSnapshot({ team: 't', exists: true, messages: [], tasks: [], departed: new Map() });
    const after = new Map([HIGH, LOW].map((id) => [id, task(id)]));
    const events = diffSnapshots(empty, empty, new Map(), after, []);
    expect(events.map((e) => (e.kind === 'task' ? e.task.id : ''))).toEqual([LOW, HIGH]);
  });

  describe('in a watched team', () => {
    let dir: TempDir;
    beforeEach(async () => {
      dir = await makeTempDir();
      await createTeam({ root: openFsStores(dir.path), team: 't' });
    });
    afterEach(() => dir.cleanup());

    it('are kept in id order when hints name them in another order', async () => {
      const tracker = new TeamTracker(openFsStores(dir.path), 't');
      await tracker.load();
      const layout = new Layout(dir.path);
      await mkdir(layout.taskDir('t'), { recursive: true });
      for (const id of [HIGH, LOW]) await writeFile(layout.taskPath('t', id), JSON.stringify(task(id), null, 2));
      const update = await tracker.apply([HIGH, LOW].map((id) => ({ kind: 'task' as const, team: 't', id })));
      expect(update.snapshot.tasks.map((v) => v.task.id)).toEqual([LOW, HIGH]);
    });
  });
});
