/**
 * `team ask` to yourself (trial 2, item 5): the lead asking team-lead, or `--as bob` asking bob,
 * waited the whole timeout for a reply nobody would send. It is refused at once, INVALID_ARGUMENT,
 * nothing sent; a plain `team send` to yourself stays allowed.
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

it.each([[[] as string[], 'team-lead'], [['--as', 'bob'], 'bob']])('%j asking %s: INVALID_ARGUMENT at once, nothing sent', async (as, self) => {
  const before = (await inboxOf(self)).length;
  // A timeout longer than the test's: the old behaviour (wait, then WAIT_TIMEOUT) cannot pass.
  const r = await mailroom(dir.path, 'team', 'ask', self, 'What did I mean?', '--timeout', '60s', ...as);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain('INVALID_ARGUMENT');
  expect(r.stderr).toContain('cannot ask itself: a reply to yourself would never come');
  expect((await inboxOf(self)).length).toBe(before);
}, 20_000);

it('a plain team send to yourself is still allowed', async () => {
  await mailroomOk(dir.path, 'team', 'send', 'bob', 'note to self', '--as', 'bob');
  expect(JSON.stringify(await inboxOf('bob'))).toContain('note to self');
});
