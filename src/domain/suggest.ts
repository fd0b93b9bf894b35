/**
 * "Did you mean …?" for a mistyped name (a member, a command, an option): the candidate that
 * differs only in letter case, else one the word begins, else one with two neighbouring letters
 * swapped, else the nearest by edit distance (Levenshtein, from fastest-levenshtein) when it is
 * close enough to be a typo.
 */
import { distance } from 'fastest-levenshtein';

/** Largest edit distance taken for a typo of a word of `length` characters. */
function typoLimit(length: number): number {
  return length <= 3 ? 1 : length <= 8 ? 2 : 3;
}

/**
 * The candidate `word` most likely stands for, or undefined when none is close.
 * e.g. `closestMatch('Alice', ['alice', 'bob'])` → `'alice'`; `closestMatch('shwo', ['show', 'list'])` → `'show'`.
 */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const sameLetters = candidates.find((c) => c.toLowerCase() === lower);
  if (sameLetters !== undefined) return sameLetters;
  const begun = lower.length >= 3 ? candidates.filter((c) => c.toLowerCase().startsWith(lower)) : [];
  if (begun.length === 1) return begun[0];
  // Two letters swapped is one slip, though Levenshtein counts two (`--prot` is --port, not --root).
  const swapped = candidates.find((c) => isSwap(lower, c.toLowerCase()));
  if (swapped !== undefined) return swapped;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(lower, c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= typoLimit(word.length) ? best : undefined;
}

/** True when `b` is `a` with two neighbouring characters swapped (`prot` → `port`). */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  const i = [...a].findIndex((ch, n) => ch !== b[n]);
  return i >= 0 && i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}
