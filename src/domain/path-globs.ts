/**
 * Whether two repository paths or globs can name one same file (docs/leases.md "Overlap"). Pure.
 * Syntax: `/`-separated segments; `**` is any number of segments (zero included); in a segment,
 * `*` is any run of characters and `?` one character. A pattern with no wildcard names a file or a
 * directory, so it also covers everything under it (`src/store` overlaps `src/store/a.ts`).
 * The answer errs on the side of "overlap" for two wildcard segments (`a*b` vs `*c`): a lease is
 * advisory, and a false conflict names its holder, who can be asked.
 */

const hasWild = (s: string): boolean => /[*?]/.test(s);

/** Splits a normalised pattern into segments; a plain path gets a trailing `**` (it may be a directory). */
export function segmentsOf(pattern: string): string[] {
  const parts = pattern.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) return ['**'];
  return hasWild(pattern) ? parts : [...parts, '**'];
}

function segmentRegex(seg: string): RegExp {
  return new RegExp(`^${seg.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

/** Two segments (no `**`) that can match one same name. */
export function segmentsMeet(a: string, b: string): boolean {
  if (!hasWild(a)) return segmentRegex(b).test(a);
  if (!hasWild(b)) return segmentRegex(a).test(b);
  // Both have wildcards: their literal heads must agree as far as both go, and so must their tails.
  const head = (s: string) => s.slice(0, s.search(/[*?]/));
  const tail = (s: string) => s.slice(Math.max(s.lastIndexOf('*'), s.lastIndexOf('?')) + 1);
  const [ha, hb, ta, tb] = [head(a), head(b), tail(a), tail(b)];
  return (ha.startsWith(hb) || hb.startsWith(ha)) && (ta.endsWith(tb) || tb.endsWith(ta));
}

function meet(a: readonly string[], i: number, b: readonly string[], j: number, memo: Map<number, boolean>): boolean {
  const key = i * (b.length + 1) + j; // j runs 0..b.length: one slot per (i, j), however deep
  const known = memo.get(key);
  if (known !== undefined) return known;
  let r: boolean;
  if (i === a.length && j === b.length) r = true;
  else if (a[i] === '**') r = meet(a, i + 1, b, j, memo) || (j < b.length && meet(a, i, b, j + 1, memo));
  else if (b[j] === '**') r = meet(a, i, b, j + 1, memo) || (i < a.length && meet(a, i + 1, b, j, memo));
  else if (i === a.length || j === b.length) r = false;
  else r = segmentsMeet(a[i]!, b[j]!) && meet(a, i + 1, b, j + 1, memo);
  memo.set(key, r);
  return r;
}

/** True when some path matches both patterns (see the module comment). */
export function globsOverlap(a: string, b: string): boolean {
  return meet(segmentsOf(a), 0, segmentsOf(b), 0, new Map());
}

/** True when `file` (a repository-relative path) is covered by `pattern`. */
export function globCovers(pattern: string, file: string): boolean {
  const f = file.split('/').filter((p) => p !== '' && p !== '.');
  const matchFrom = (p: readonly string[], i: number, j: number): boolean => {
    if (i === p.length) return j === f.length;
    if (p[i] === '**') return matchFrom(p, i + 1, j) || (j < f.length && matchFrom(p, i, j + 1));
    return j < f.length && segmentRegex(p[i]!).test(f[j]!) && matchFrom(p, i + 1, j + 1);
  };
  return matchFrom(segmentsOf(pattern), 0, 0);
}
