/**
 * The store part of the command an installed hook runs (`lease guard --install`, `lease hook
 * --install`): the store the user resolved at install time, written out in full, so the hook finds
 * the same team from a shell that lacks `$MAILROOM_ROOT` or `$MAILROOM_STORE` (git and Claude Code
 * run hooks with whatever environment they were started in). A password is never written in clear.
 */
import { MailroomError } from '../errors.js';
import { redactUrl, resolveSelection } from '../store/open.js';
import { shellQuote } from '../core/text/shell-quote.js';

/** What names the store on the command line (the global options). */
export interface StoreFlags {
  store?: string | undefined;
  root?: string | undefined;
  claude?: boolean | undefined;
}

const hasPassword = (url: string): boolean => {
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
};

/**
 * The shell words (already quoted) naming the store `flags` and `env` select: `--root <absolute
 * dir>` for the files store (from `--root`, `$MAILROOM_ROOT`, `--claude` or the default), and
 * `--store <url> --root <dir>` for a Redis store. A Redis URL with a password that came from
 * `$MAILROOM_STORE` is kept as a reference, `"${MAILROOM_STORE:?…}"` (the hook's shell must have it;
 * without it the hook fails saying so, never silently on another store).
 * @throws INVALID_ARGUMENT when `--store` itself carries a password (the hook file would hold it in clear): the message says to give the URL through `$MAILROOM_STORE` instead
 */
export function hookStoreWords(flags: StoreFlags, env: NodeJS.ProcessEnv = process.env): string[] {
  const selection = resolveSelection({ store: flags.store, root: flags.root, claude: flags.claude, env });
  if (selection.kind === 'fs') return ['--root', shellQuote(selection.root)];
  const root = ['--root', shellQuote(selection.hostRoot)];
  if (!hasPassword(selection.url)) return ['--store', shellQuote(selection.url), ...root];
  const fromFlag = flags.store !== undefined && flags.store !== '';
  if (fromFlag) {
    throw new MailroomError(
      'INVALID_ARGUMENT',
      `--store ${redactUrl(selection.url)} carries a password, and the hook file would hold it in clear. Give the URL through the environment instead: export MAILROOM_STORE='<the URL>' in the shell git and Claude Code run in, and install again without --store (the hook then reads $MAILROOM_STORE).`,
      { details: { store: redactUrl(selection.url) } },
    );
  }
  return ['--store', '"${MAILROOM_STORE:?mailroom: set MAILROOM_STORE to the store URL - the hook does not hold its password}"', ...root];
}
