/**
 * `mailroom agent --idle-notifications` (the real binary, a scripted model): `every-turn` sends an
 * idle_notification after each of two turns that end alike, as Claude Code does; a value outside
 * `changes`/`every-turn` is a usage error.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sendMessage, spawnMember } from '../../src/index.js';
import { openFsStores } from '../../src/store/open.js';
import { runCli } from '../helpers/cli.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const cli = (...args: string[]) => runCli(['--root', dir.path, '--team', 'demo', ...args]);
beforeEach(async () => {
  dir = await makeTempDir('mailroom-idle-');
  expect((await runCli(['--root', dir.path, 'team', 'create', 'demo'])).code).toBe(0);
  await spawnMember({ root: openFsStores(dir.path), team: 'demo', name: 'bob' });
});
afterEach(() => dir.cleanup());

const idles = async () => (await openFsStores(dir.path).team.readInbox('demo', 'team-lead')).filter((e) => e.text.includes('"idle_notification"'));

it('agent --idle-notifications every-turn: two turns that end alike send two idle notifications (the default sends one: test/unit/runtime/lost-report.test.ts)', async () => {
  const script = join(dir.path, 'bob.json');
  await writeFile(script, JSON.stringify([{ toolCalls: [{ name: 'TaskList', input: {} }] }, {}, { toolCalls: [{ name: 'TaskList', input: {} }] }, {}]));
  const agent = cli('agent', 'bob', '--model', `scripted:${script}`, '--idle-notifications', 'every-turn');
  try {
    await until(async () => (await openFsStores(dir.path).team.readClaims('demo')).some((c) => c.member === 'bob'), 15_000, 'bob to start');
    await sendMessage({ root: openFsStores(dir.path), team: 'demo', to: 'bob', text: 'first' });
    await until(async () => (await idles()).length === 1, 15_000, 'the first idle notification');
    await sendMessage({ root: openFsStores(dir.path), team: 'demo', to: 'bob', text: 'second' });
    await until(async () => (await idles()).length === 2, 15_000, 'the second idle notification');
  } finally {
    await cli('team', 'stop', 'bob', '--force');
    await agent;
  }
});

it('refuses an unknown --idle-notifications value', async () => {
  const run = await cli('agent', 'bob', '--idle-notifications', 'never');
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/idle-notifications.*"never"/s);
});
