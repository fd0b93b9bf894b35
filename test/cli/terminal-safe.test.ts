/**
 * Text from other agents reaches the user's terminal: a message, task subject or team description
 * holding escape sequences (clear screen, set the window title, colors), a carriage return or a
 * bidi override must not act on the terminal. Human output shows such characters as visible
 * escapes (`\x1b`, `\u202e`); `--json` keeps the exact text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { cleanEnv, mailroom, mailroomOk } from '../helpers/store-files.js';
import { startCli } from '../helpers/line-child.js';

const HOSTILE = 'a\u001b]0;PWNED\u0007b\u001b[2Jc\rd\u202ee\u009bf';
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let dir: TempDir;
let root: string;
beforeAll(async () => {
  dir = await makeTempDir();
  root = dir.path;
  await mailroomOk(root, 'team', 'create', 'demo', '--description', HOSTILE);
  await mailroomOk(root, 'team', 'spawn', 'alice');
  await mailroomOk(root, 'team', 'send', 'team-lead', HOSTILE, '--from', 'alice', '--summary', HOSTILE);
  await mailroomOk(root, 'task', 'add', HOSTILE, '--description', HOSTILE);
});
afterAll(() => dir.cleanup());

describe('human output neutralises control characters', () => {
  it.each([['inbox'], ['inbox', '--raw'], ['task', 'list'], ['task', 'show', '1'], ['team', 'show'], ['log']].map((a) => [a.join(' '), a] as const))('mailroom %s', async (_name, args) => {
    const run = await mailroomOk(root, ...args);
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.stdout).toContain('a\\x1b]0;PWNED\\x07b\\x1b[2Jc'); // one-line renderings show the carriage return as a space
    expect(run.stdout).toContain('d\\u202ee\\x9bf');
  });

  it('watch --plain (no terminal)', async () => {
    const watch = startCli(['--root', root, 'watch', '--plain'], cleanEnv());
    try {
      await watch.waitForLine((l) => l.includes('watching team demo'));
      await mailroomOk(root, 'team', 'send', 'team-lead', `live ${HOSTILE}`, '--from', 'alice');
      const line = await watch.waitForLine((l) => l.includes('live a'));
      expect(line).not.toMatch(CONTROL);
    } finally {
      await watch.stop();
    }
  });

  // Session 14 (break test): a store warning named a team directory as it is on disk, escapes and all.
  it('a store warning about a hostile directory name', async () => {
    const own = await makeTempDir();
    const evil = `${own.path}/teams/evil\u001b[2J\u001b]0;PWNED\u0007`;
    await mkdir(evil, { recursive: true });
    await writeFile(`${evil}/config.json`, '{');
    const run = await mailroom(own.path, 'team', 'show', 'nope');
    await own.cleanup();
    expect(run.stderr).toContain('skipping team directory');
    expect(run.stderr).toContain('evil\\x1b[2J');
    expect(run.stderr).not.toMatch(CONTROL);
  });

  it('--json keeps the exact text', async () => {
    const run = await mailroomOk(root, 'inbox', '--json');
    expect((JSON.parse(run.stdout) as { messages: { entry: { text: string } }[] }).messages[0]!.entry.text).toBe(HOSTILE);
  });
});
