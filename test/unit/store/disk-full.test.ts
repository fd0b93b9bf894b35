/**
 * Issue 9 item 7: a send on a full disk said `Cannot write (unknown path)`. On a real full file
 * system — a 256 KiB tmpfs mounted in a private mount namespace (`unshare -rm`, no root needed
 * where user namespaces are allowed) — `mailroom team send` must fail with FILE_ACCESS (exit 7)
 * naming the inbox, leave the inbox as it was and no temporary file behind.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const CHILD = fileURLToPath(new URL('../../helpers/disk-full-child.mjs', import.meta.url));

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-full-');
});
afterEach(() => tmp.cleanup());

describe('a send on a full disk', () => {
  it('names the inbox it could not write, exits 7, and leaves the inbox whole with no temporary file', () => {
    const run = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=256k tmpfs "$0" && exec "$@"', tmp.path, process.execPath, CHILD, tmp.path], { encoding: 'utf8' });
    if (run.error || run.status !== 0) {
      throw new Error(
        `This test needs \`unshare\` (util-linux) and permission to mount a tmpfs in a private mount namespace ` +
          `(root, or unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1). It got: ${run.error?.message ?? run.stderr}`,
      );
    }
    const result = JSON.parse(run.stdout) as { code: number; stderr: string; inboxBefore: string; inboxAfter: string; leftovers: string[] };
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/^mailroom: FILE_ACCESS: Cannot write \S+\/teams\/t\/inboxes\/team-lead\.json: no space left on the device\. Free some space, then retry\./);
    expect(result.stderr).not.toMatch(/unknown path/);
    expect(result.inboxAfter).toBe(result.inboxBefore);
    expect(result.leftovers).toEqual([]);
  }, 30_000);
});

describe('any other write error', () => {
  it('is FILE_ACCESS naming the file (an I/O error injected at the write primitive’s error mapping)', async () => {
    const { fileWriteError, MailroomError } = await import('../../../src/errors.js');
    const err = fileWriteError('/store/teams/t/inboxes/a.json', Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO', syscall: 'write' }));
    expect(err).toBeInstanceOf(MailroomError);
    expect((err as InstanceType<typeof MailroomError>).code).toBe('FILE_ACCESS');
    expect((err as Error).message).toBe('Cannot write /store/teams/t/inboxes/a.json: EIO: i/o error, write. The file was left as it was (nothing half-written).');
  });
});
