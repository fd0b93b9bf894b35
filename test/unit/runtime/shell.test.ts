/**
 * runShell: a command ends when its shell does. What the shell started in the background stays in
 * its process group, holding the output pipes; it is stopped, so the command returns at once
 * instead of at its timeout, and nothing it left runs on.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runShell } from '../../../src/runtime/shell.js';
import { until } from '../../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('mailroom-shell-');
});
afterEach(() => dir.cleanup());

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runShell', () => {
  it('returns when the shell exits and stops the background process it left', async () => {
    const result = await runShell({
      command: 'sleep 60 & echo $! > bg.pid; echo done',
      cwd: dir.path,
      timeoutMs: 30_000,
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
    expect(result.stdout).toBe('done\n');
    const bg = Number((await readFile(join(dir.path, 'bg.pid'), 'utf8')).trim());
    expect(bg).toBeGreaterThan(1);
    await until(() => !alive(bg), 10_000, 'the background sleep to be stopped');
  });

  it('a background process that ignores SIGTERM is killed too', async () => {
    const result = await runShell({
      command: `sh -c 'trap "" TERM; echo $$ > bg.pid; sleep 60' & while [ ! -s bg.pid ]; do sleep 0.05; done; exit 3`,
      cwd: dir.path,
      timeoutMs: 30_000,
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ exitCode: 3, timedOut: false });
    const bg = Number((await readFile(join(dir.path, 'bg.pid'), 'utf8')).trim());
    await until(() => !alive(bg), 10_000, 'the background shell to be killed');
  });

  it('a background process that ignores SIGTERM and holds no output pipe is killed too', async () => {
    // Its output goes elsewhere, so the command's pipes close as soon as the shell exits: the
    // SIGKILL after the grace period must not depend on the pipes staying open.
    const result = await runShell({
      command: `sh -c 'trap "" TERM; echo $$ > bg.pid; exec sleep 60' >/dev/null 2>&1 </dev/null & while [ ! -s bg.pid ]; do sleep 0.05; done; exit 3`,
      cwd: dir.path,
      timeoutMs: 30_000,
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ exitCode: 3, timedOut: false });
    const bg = Number((await readFile(join(dir.path, 'bg.pid'), 'utf8')).trim());
    expect(bg).toBeGreaterThan(1);
    await until(() => !alive(bg), 10_000, 'the background sleep that ignores SIGTERM to be killed');
  });
});
