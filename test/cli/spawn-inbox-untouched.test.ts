/**
 * Spawning checks the member's inbox for shutdown_requests left for an earlier member of that name
 * (they are marked read), and otherwise leaves it alone: no inbox is created for a member spawned
 * without a prompt, and an existing inbox (possibly Claude Code's) is not rewritten.
 */
import { readFile, stat } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Layout } from '../../src/store/fs/paths.js';
import { mailroomOk } from '../helpers/store-files.js';
import { makeTeam, writeInboxFile } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-spawn-inbox-');
  await makeTeam(tmp.path, 't', []);
});
afterEach(() => tmp.cleanup());

describe('team spawn and the inbox', () => {
  it('creates no inbox without a prompt', async () => {
    await mailroomOk(tmp.path, 'team', 'spawn', 'x');
    await expect(stat(new Layout(tmp.path).inboxPath('t', 'x'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('leaves an inbox without stale shutdown requests byte for byte as it was', async () => {
    const entries = [{ from: 'team-lead', text: 'hello again', timestamp: '2026-01-01T00:00:00.000Z', read: false }];
    const path = await writeInboxFile(tmp.path, 't', 'y', entries);
    const before = await readFile(path);
    const mtime = (await stat(path)).mtimeMs;
    await mailroomOk(tmp.path, 'team', 'spawn', 'y');
    expect(await readFile(path)).toEqual(before);
    expect((await stat(path)).mtimeMs).toBe(mtime);
  });
});
