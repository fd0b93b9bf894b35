/**
 * `team send <yourself> … --wait replied` (new-user trial): the message became an ask to its own
 * sender and the command waited its whole --timeout for a reply nobody would send (the lead asking
 * team-lead, or `--as bob` to bob). It is refused at once by the rule `team ask` refuses by
 * (src/domain/ask-self.ts), INVALID_ARGUMENT, nothing sent.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'bob');
});
afterEach(async () => {
  await dir.cleanup();
});

const inboxOf = async (name: string) => (JSON.parse((await mailroomOk(dir.path, '--json', 'inbox', name, '--all')).stdout) as { messages: unknown[] }).messages;

it.each([[[] as string[], 'team-lead'], [['--as', 'bob'], 'bob'], [['--wait-for-start'], 'team-lead']])('%j, --wait replied to %s: INVALID_ARGUMENT at once, nothing sent', async (as, self) => {
  const before = (await inboxOf(self)).length;
  // A timeout longer than the test's: the old behaviour (wait, then WAIT_TIMEOUT) cannot pass.
  const r = await mailroom(dir.path, 'team', 'send', self, 'Did I answer?', '--wait', 'replied', '--timeout', '60s', ...as);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain('INVALID_ARGUMENT');
  expect(r.stderr).toContain('cannot ask itself: a reply to yourself would never come');
  expect((await inboxOf(self)).length).toBe(before);
}, 20_000);
