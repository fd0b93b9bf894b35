/**
 * `inbox <member> --status` lists each message's msg_id beside its state, which `message show`
 * takes (new-user trial, session 17: MESSAGE_NOT_FOUND said to list one with `inbox --status`,
 * whose lines showed no msg_id — only --json did).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const cli = (...args: string[]) => runCli(['--root', dir.path, '--team', 'demo', ...args]);
beforeEach(async () => {
  dir = await makeTempDir('mailroom-inbox-status-');
  expect((await runCli(['--root', dir.path, 'team', 'create', 'demo'])).code).toBe(0);
  expect((await cli('team', 'spawn', 'bob')).code).toBe(0);
});
afterEach(async () => dir.cleanup());

it('prints the msg_id on each --status line; message show takes it; an unknown one points at that listing', async () => {
  const sent = JSON.parse((await cli('team', 'send', 'bob', 'hello', '--json')).stdout) as { entry: { msg_id: string } };
  const listing = await cli('inbox', 'bob', '--status');
  expect(listing.code, listing.stderr).toBe(0);
  expect(listing.stdout).toContain(`msg_id ${sent.entry.msg_id}]`);
  const shown = await cli('message', 'show', sent.entry.msg_id);
  expect(shown.code, shown.stderr).toBe(0);
  const missing = await cli('message', 'show', '00000000-0000-4000-8000-000000000000');
  expect(missing.code).toBe(3);
  expect(missing.stderr).toContain('MESSAGE_NOT_FOUND');
  expect(missing.stderr).toContain('inbox <member> --status');
});
