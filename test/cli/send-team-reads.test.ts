/**
 * Issue 24: `team send` reads the team's config and settings at once (one Redis round trip instead
 * of two before the append). What a user sees when either file is bad must not change: the config's
 * error when both are bad, the settings' error when only they are, nothing appended either way.
 * Real CLI processes on a files root. (The CLI resolves the team before these reads, so the order
 * of the reads themselves is held by test/unit/core/send-team-reads.test.ts.)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
let inbox: string;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'bb');
  await mailroomOk(dir.path, '--team', 'bb', 'team', 'spawn', 'alice');
  await mailroomOk(dir.path, '--team', 'bb', 'team', 'send', 'alice', 'first');
  inbox = `${dir.path}/teams/bb/inboxes/alice.json`;
});
afterEach(async () => dir.cleanup());

describe('team send with a bad config or settings file', () => {
  it('names config.json when both files are unreadable, and appends nothing', async () => {
    await writeFile(`${dir.path}/teams/bb/config.json`, '{"name": "bb", broken');
    await writeFile(`${dir.path}/teams/bb/mailroom-settings.json`, '{"policy": broken');
    const before = await readFile(inbox, 'utf8');
    const send = await mailroom(dir.path, '--team', 'bb', 'team', 'send', 'alice', 'hi');
    expect(send.code).toBe(7);
    expect(send.stderr).toContain('FILE_CORRUPT');
    expect(send.stderr).toContain('config.json is not valid JSON');
    expect(send.stderr).not.toContain('mailroom-settings.json');
    expect(await readFile(inbox, 'utf8')).toBe(before);
  });

  it('refuses the send when only the settings file is unreadable, and names it', async () => {
    await writeFile(`${dir.path}/teams/bb/mailroom-settings.json`, '{"policy": broken');
    const before = await readFile(inbox, 'utf8');
    for (const verb of [['team', 'send', 'alice', 'hi'], ['team', 'broadcast', 'hi']]) {
      const send = await mailroom(dir.path, '--team', 'bb', ...verb);
      expect(send.code).toBe(7);
      expect(send.stderr).toContain('mailroom-settings.json is not valid JSON');
    }
    expect(await readFile(inbox, 'utf8')).toBe(before);
  });

  it('applies settings written just before the send (nothing is cached between commands)', async () => {
    await mailroomOk(dir.path, '--team', 'bb', 'team', 'policy', '--max-message-bytes', '4096');
    const send = await mailroom(dir.path, '--team', 'bb', 'team', 'send', 'alice', 'x'.repeat(5000));
    expect(send.code).not.toBe(0);
    expect(send.stderr).toContain('MESSAGE_TOO_LARGE');
    await mailroomOk(dir.path, '--team', 'bb', 'team', 'policy', '--max-message-bytes', '8192');
    await mailroomOk(dir.path, '--team', 'bb', 'team', 'send', 'alice', 'x'.repeat(5000));
    expect((await readFile(inbox, 'utf8')).includes('x'.repeat(5000))).toBe(true);
  });
});
