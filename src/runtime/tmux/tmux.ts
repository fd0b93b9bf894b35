/**
 * Running the `tmux` client for the tmux backend: found on `PATH` (else TMUX_NOT_FOUND, with the
 * fix), talking to the server the caller's environment names (`$TMUX` inside a tmux session, else
 * the default server under `$TMUX_TMPDIR`), as tmux itself does.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { MailroomError } from '../../errors.js';

/**
 * The `tmux` executable on `PATH`.
 * @throws TMUX_NOT_FOUND (exit 3) naming the fix: install tmux, or use another backend
 */
export async function findTmux(path: string | undefined = process.env['PATH']): Promise<string> {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'tmux');
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  throw new MailroomError(
    'TMUX_NOT_FOUND',
    'The tmux backend needs tmux, and no `tmux` is on PATH: install it (`apt install tmux` on Debian/Ubuntu, `brew install tmux` on macOS) and run the same command again, or use `--backend process` (a detached process, no pane).',
    { details: { path: path ?? '' } },
  );
}

/**
 * Runs `tmux <args>` and resolves its stdout.
 * @throws INTERNAL quoting tmux's stderr when it exits non-zero
 */
export function tmux(bin: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new MailroomError('INTERNAL', `tmux ${args[0] ?? ''} failed: ${stderr.trim() || err.message}`, { cause: err, details: { args: [...args] } }));
      else resolve(stdout);
    });
  });
}

/** The pane option that marks a pane as the one mailroom started for a member (`<team>/<name>`). */
export const MEMBER_PANE_OPTION = '@mailroom-member';
