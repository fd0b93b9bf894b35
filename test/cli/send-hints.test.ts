/**
 * Two hints of `team send` a new user's trial (session 19) missed: `team send "hi"` (the one word
 * read as the recipient) said only that the text was empty; `--wait read --timeout 5` ran out after
 * 5 ms without the bare-number hint `team ask` gives. Real CLI processes; nothing is stored by the
 * refused send.
 */
import { describe, expect, it } from 'vitest';
import { cliRootForFile, mailroom, snapshotBytes } from '../helpers/store-files.js';

const root = cliRootForFile(['team', 'create', 'demo'], ['team', 'spawn', 'alice']);

describe('team send hints', () => {
  it('one word: says it was read as the recipient; exit 2, nothing stored', async () => {
    const before = await snapshotBytes(root());
    const run = await mailroom(root(), 'team', 'send', 'hi');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('mailroom: MESSAGE_INVALID: Message text is empty: give the text to send (or - to read it from stdin). ("hi" was read as the recipient: `team send <to> <text>`)\n');
    expect(await snapshotBytes(root())).toEqual(before);
  });

  it('--wait with a bare --timeout: the wait ran out after that many ms, and says so', async () => {
    // --wait-for-start: nothing runs alice, so the wait would otherwise end at once (WAIT_UNREACHABLE, send-wait-unreachable.test.ts).
    const run = await mailroom(root(), 'team', 'send', 'alice', 'hello', '--wait', 'read', '--wait-for-start', '--timeout', '5');
    expect(run.code).toBe(9);
    expect(run.stderr).toContain('WAIT_TIMEOUT');
    expect(run.stderr).toContain('(--timeout 5 is 5 ms: a bare number is milliseconds; --timeout 5s waits 5 seconds.)');
  });
});
