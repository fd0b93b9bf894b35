/**
 * Choosing the backend in one place (issue 15 item 6): `--store`/`$MAILROOM_STORE` URLs, `--root`,
 * `--claude`, `$MAILROOM_ROOT`; and a child process getting the same selection.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStores, redactUrl, resolveSelection, selectionArgs, selectionEnv, selectionHint } from '../../../src/store/open.js';
import { redisServerKey } from '../../../src/store/redis/url.js';
import { thrownAsync } from '../../helpers/thrown.js';

const env = (e: Record<string, string> = {}) => ({ HOME: '/home/u', ...e });

describe('resolveSelection', () => {
  it('is the filesystem store at --root, else $MAILROOM_ROOT, else ~/.mailroom; --claude is Claude Code’s directory', () => {
    expect(resolveSelection({ root: '/r', env: env({ MAILROOM_ROOT: '/m' }) })).toEqual({ kind: 'fs', root: '/r' });
    expect(resolveSelection({ env: env({ MAILROOM_ROOT: '/m' }) })).toEqual({ kind: 'fs', root: '/m' });
    expect(resolveSelection({ claude: true, env: env({ CLAUDE_CONFIG_DIR: '/c' }) })).toEqual({ kind: 'fs', root: '/c' });
  });

  it('takes redis:// and rediss:// URLs from --store or $MAILROOM_STORE, with the root as this machine’s directory', () => {
    expect(resolveSelection({ store: 'redis://localhost:6379/2', root: '/h', env: env() })).toEqual({ kind: 'redis', url: 'redis://localhost:6379/2', hostRoot: '/h' });
    expect(resolveSelection({ env: env({ MAILROOM_STORE: 'rediss://u:pw@db.example:6380', MAILROOM_ROOT: '/m' }) })).toEqual({ kind: 'redis', url: 'rediss://u:pw@db.example:6380', hostRoot: '/m' });
    expect(resolveSelection({ store: 'redis://a:1', env: env({ MAILROOM_STORE: 'redis://b:2' }) })).toMatchObject({ url: 'redis://a:1' });
    expect(resolveSelection({ store: '', root: '/r', env: env({ MAILROOM_STORE: '' }) })).toEqual({ kind: 'fs', root: '/r' });
    expect(resolveSelection({ store: 'file:///srv/teams', env: env() })).toEqual({ kind: 'fs', root: '/srv/teams' });
  });

  it.each([
    ['http://localhost:6379', 'the scheme http is not supported'],
    ['redis://', 'it names no host'],
    ['redis://localhost:6379/db', 'is not a database number'],
    ['redis://localhost:6379/0?x=1', 'query strings'],
    ['not a url', 'it is not a URL'],
    ['redis://127.0.0.1:99999', 'its port 99999 is out of range (1–65535'],
    ['redis://user:pw@[::1]:70000/0', 'its port 70000 is out of range'],
  ])('refuses %j with INVALID_ARGUMENT naming the accepted forms', (url, why) => {
    let error: unknown;
    try {
      resolveSelection({ store: url, env: env() });
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((error as Error).message).toContain(why);
    expect((error as Error).message).toContain('redis://[user:password@]host[:port][/db]');
  });

  it('never shows a password', () => {
    expect(redactUrl('redis://u:secret@h:1/0')).toBe('redis://u:***@h:1/0');
    expect(redisServerKey('redis://u:secret@H:1/0')).toBe('h:1/0');
    expect(redisServerKey('redis://:other@h:1')).toBe('h:1/0');
    expect(redisServerKey('rediss://h/3')).toBe('h:6379/3');
    let error: unknown;
    try {
      resolveSelection({ store: 'redis://u:secret@h:1/x', env: env() });
    } catch (err) {
      error = err;
    }
    expect((error as Error).message).not.toContain('secret');
    expect(selectionHint({ kind: 'redis', url: 'redis://u:secret@h:1', hostRoot: '/h' }).join(' ')).not.toContain('secret');
  });
});

describe('a child process', () => {
  it('gets the same selection: the root as an argument, a network URL (and its password) in the environment only', () => {
    const fs = { kind: 'fs' as const, root: join('/tmp', 'x y') };
    expect(selectionArgs(fs)).toEqual(['--root', '/tmp/x y']);
    expect(selectionEnv(fs)).toEqual({ MAILROOM_STORE: '' });
    expect(resolveSelection({ root: selectionArgs(fs)[1], env: env({ MAILROOM_STORE: 'redis://inherited:1', ...selectionEnv(fs) }) })).toEqual(fs);
    const redis = { kind: 'redis' as const, url: 'redis://u:pw@h:1/0', hostRoot: '/h' };
    expect(selectionArgs(redis).join(' ')).not.toContain('pw');
    expect(resolveSelection({ root: selectionArgs(redis)[1], env: env(selectionEnv(redis)) })).toEqual(redis);
  });
});

describe('openStores', () => {
  it('opens the filesystem store, and says a Redis store is not in this build until its module is', async () => {
    const stores = await openStores({ kind: 'fs', root: '/tmp/unused-root' });
    expect(stores.selection).toEqual({ kind: 'fs', root: '/tmp/unused-root' });
    expect(stores.team.location).toBe('/tmp/unused-root');
    const err = await thrownAsync(() => openStores({ kind: 'redis', url: 'redis://localhost:1', hostRoot: '/tmp/h' }));
    expect(['NOT_SUPPORTED', 'STORE_UNAVAILABLE']).toContain(err.code);
  });
});
