/**
 * The one place lease paths meet the file system (docs/leases.md "Symbolic links"): a path is
 * resolved through symbolic links before it is made repository-relative, so `srclink/a.ts` (with
 * `srclink -> src`) is `src/a.ts`, and a repository reached through a linked directory (macOS's
 * /tmp is a link to /private/tmp) is the same repository. Used by acquire, the PreToolUse hook and
 * the git guard alike, and for repository roots.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * `path` (made absolute against `cwd`) with symbolic links resolved: the realpath of its longest
 * existing prefix, followed by the rest as written (a file not created yet). Never throws: a path
 * none of whose prefixes resolves is returned as given, made absolute.
 */
export function realPath(path: string, cwd: string = process.cwd()): string {
  const abs = resolve(cwd, path);
  const rest: string[] = [];
  for (let head = abs; ; head = dirname(head)) {
    try {
      return join(realpathSync(head), ...rest);
    } catch {
      if (dirname(head) === head) return abs;
      rest.unshift(basename(head));
    }
  }
}

/**
 * A path or glob (made absolute against `cwd`) with the directory part before its first wildcard
 * (`*`, `?`) resolved by {@link realPath}; the wildcard segments and after are kept as written.
 */
export function realPattern(pattern: string, cwd: string = process.cwd()): string {
  const abs = resolve(cwd, pattern);
  const parts = abs.split(sep);
  const wild = parts.findIndex((p) => /[*?]/.test(p));
  if (wild < 0) return realPath(abs);
  return join(realPath(parts.slice(0, wild).join(sep) || sep), ...parts.slice(wild));
}

/**
 * `abs` relative to `root` as a POSIX path (`''` for the root itself), or undefined when it lies
 * outside: only `..` and `../…` leave the root — a file named `..env` at the root is inside it.
 * The one inside/outside rule of acquire, the PreToolUse hook and the git guard. Both paths are
 * taken as given (resolve them with {@link realPath} first).
 */
export function insideRepo(root: string, abs: string): string | undefined {
  const rel = relative(root, abs);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}
