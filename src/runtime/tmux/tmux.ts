/**
 * Running the `tmux` client for the tmux backend: found on `PATH` (else TMUX_NOT_FOUND, with the
 * fix: `tmux -V` fails with ENOENT), talking to the server the caller's environment names (`$TMUX` inside a tmux session, else
 * the default server under `$TMUX_TMPDIR`), as tmux itself does.
 */
import { execFile } from 'node:child_process';
import { MailroomError, isErrno } from '../../errors.js';

/**
 * The `tmux` client to run (`tmux`, looked up on `PATH` by the OS), once `tmux -V` ran.
 * @throws TMUX_NOT_FOUND (exit 3) naming the fix: install tmux, or use another backend
 */
export async function findTmux(): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    execFile('tmux', ['-V'], (err) => {
      if (!err) return resolve();
      if (isErrno(err, 'ENOENT') || isErrno(err, 'EACCES')) {
        return reject(
          new MailroomError(
            'TMUX_NOT_FOUND',
            'The tmux backend needs tmux, and no `tmux` is on PATH: install it (`apt install tmux` on Debian/Ubuntu, `brew install tmux` on macOS) and run the same command again, or use `--backend process` (a detached process, no pane).',
            { details: { path: process.env['PATH'] ?? '' } },
          ),
        );
      }
      reject(new MailroomError('INTERNAL', `\`tmux -V\` failed: ${err.message}`, { cause: err }));
    });
  });
  return 'tmux';
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
