/**
 * A real terminal for screen tests: a detached tmux session on its own server socket (so tests
 * never touch the user's tmux), keys sent with send-keys, the screen read with capture-pane.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A running tmux session. */
export interface TmuxSession {
  /** Sends keys (tmux key names like `Enter`, `Escape`, `Tab`, or literal text with `literal`). */
  send(keys: string, options?: { literal?: boolean }): Promise<void>;
  /** The visible screen as text, one line per row. */
  screen(): Promise<string>;
  /**
   * Polls the screen until `test` accepts it on two captures in a row that are the same (a settled
   * frame); throws with the last screen after `ms`. One capture may show a frame half drawn: a
   * watch frame is about 7 KB, which tmux reads from the pane in more than one chunk and may
   * capture between them (2 of 300 captures taken just after a redraw showed the top panes without
   * the rest), so a test that waited for the roster could then miss the task pane below it.
   */
  waitFor(test: (screen: string) => boolean, ms?: number): Promise<string>;
  /**
   * Kills the session's tmux server and waits until the pane's processes are gone (SIGKILL after
   * 10 s): a test may remove the directory they write in right after (CI: a `watch` still writing
   * its journal as it died made the cleanup's rm fail with ENOTEMPTY).
   */
  kill(): Promise<void>;
}

/** Starts `command` (a shell command line) in a `width`×`height` detached session. */
export async function startTmux(command: string, width = 120, height = 40): Promise<TmuxSession> {
  const socket = `mailroom-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, '-f', '/dev/null', ...args]);
  await tmux('new-session', '-d', '-x', String(width), '-y', String(height), command);
  const screen = async () => (await tmux('capture-pane', '-p', '-t', '0')).stdout;
  return {
    send: async (keys, options = {}) => void (await tmux('send-keys', '-t', '0', ...(options.literal ? ['-l'] : []), keys)),
    screen,
    waitFor: async (test, ms = 10_000) => {
      const until = Date.now() + ms;
      let last = '';
      let previous: string | undefined;
      while (Date.now() < until) {
        last = await screen().catch(() => last);
        if (last === previous && test(last)) return last;
        previous = last;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`screen never matched; last screen:\n${last}`);
    },
    kill: async () => {
      const pane = await tmux('display-message', '-p', '-t', '0', '#{pane_pid}').catch(() => ({ stdout: '' }));
      await tmux('kill-server').catch(() => undefined);
      const pgid = Number(pane.stdout.trim());
      if (pgid > 0) await groupGone(pgid);
    },
  };
}

/**
 * Resolves once process group `pgid` (a tmux pane's: its shell and what it runs) has no live
 * process left; a zombie waiting to be reaped (the killed server's children, for about a second)
 * counts as gone, as it writes nothing.
 */
async function groupGone(pgid: number, ms = 10_000): Promise<void> {
  const alive = async () => {
    const ps = await run('ps', ['-o', 'stat=', '-g', String(pgid)]).catch(() => ({ stdout: '' }));
    return ps.stdout.split('\n').some((stat) => stat.trim() !== '' && !stat.trim().startsWith('Z'));
  };
  const until = Date.now() + ms;
  while (await alive()) {
    if (Date.now() > until) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Quotes a value for a POSIX shell command line. */
export function sh(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
