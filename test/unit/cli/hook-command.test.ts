/**
 * src/cli/hook-command.ts: the store words an installed hook carries (trial 2, item 1).
 */
import { expect, it } from 'vitest';
import { hookStoreWords } from '../../../src/cli/hook-command.js';
import { thrown } from '../../helpers/thrown.js';

it('writes the root $MAILROOM_ROOT names, absolute', () => {
  expect(hookStoreWords({}, { MAILROOM_ROOT: '/srv/mail room' })).toEqual(['--root', "'/srv/mail room'"]);
});

it('writes a Redis URL without a password in full, with this machine\'s root', () => {
  expect(hookStoreWords({}, { MAILROOM_STORE: 'redis://127.0.0.1:6390/2', MAILROOM_ROOT: '/srv/m' })).toEqual(['--store', 'redis://127.0.0.1:6390/2', '--root', '/srv/m']);
});

it('keeps a reference to $MAILROOM_STORE when its URL has a password, never the password', () => {
  const words = hookStoreWords({}, { MAILROOM_STORE: 'redis://:pw-123@127.0.0.1:6390', MAILROOM_ROOT: '/srv/m' });
  expect(words.join(' ')).not.toContain('pw-123');
  expect(words[1]).toMatch(/^"\$\{MAILROOM_STORE:\?/);
});

it('refuses --store with a password, naming the fix without the password', () => {
  const err = thrown(() => hookStoreWords({ store: 'redis://u:pw-123@127.0.0.1:6390' }, {}));
  expect(err).toMatchObject({ code: 'INVALID_ARGUMENT' });
  expect(err.message).not.toContain('pw-123');
  expect(err.message).toContain('MAILROOM_STORE');
});
