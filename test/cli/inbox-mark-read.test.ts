/**
 * `inbox --mark-read` shows the messages as they are stored after the command: `read: true`, with
 * the ones it just marked flagged `newlyRead` (JSON) or `(new)` (text); a second run marks nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailroomOk } from '../helpers/store-files.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-mark-read-');
  await makeTeam(tmp.path, 't', ['a']);
});
afterEach(() => tmp.cleanup());

interface View { messages: { entry: { text: string; read: boolean }; newlyRead?: boolean }[] }

describe('inbox --mark-read', () => {
  it('reports what it marked as read, in JSON and in text', async () => {
    await mailroomOk(tmp.path, 'team', 'send', 'a', 'first');
    await mailroomOk(tmp.path, 'inbox', 'a', '--mark-read');
    await mailroomOk(tmp.path, 'team', 'send', 'a', 'second');

    const marked = JSON.parse((await mailroomOk(tmp.path, 'inbox', 'a', '--mark-read', '--json')).stdout) as View;
    expect(marked.messages.map((m) => [m.entry.text, m.entry.read, m.newlyRead ?? false])).toEqual([
      ['first', true, false],
      ['second', true, true],
    ]);
    const again = JSON.parse((await mailroomOk(tmp.path, 'inbox', 'a', '--json')).stdout) as View;
    expect(again.messages.map((m) => [m.entry.read, m.newlyRead ?? false])).toEqual([[true, false], [true, false]]);

    await mailroomOk(tmp.path, 'team', 'send', 'a', 'third');
    const text = (await mailroomOk(tmp.path, 'inbox', 'a', '--unread', '--mark-read')).stdout;
    expect(text).toMatch(/team-lead \(new\): third/);
    expect((await mailroomOk(tmp.path, 'inbox', 'a', '--unread')).stdout).not.toContain('third');
  });
});
