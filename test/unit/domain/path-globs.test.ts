/** Overlap of lease paths and globs (src/domain/path-globs.ts; docs/leases.md "Overlap"), on the cases the issue names and their kin. */
import { describe, expect, it } from 'vitest';
import { globCovers, globsOverlap } from '../../../src/domain/path-globs.js';

describe('globsOverlap', () => {
  it.each([
    ['src/**', 'src/store/a.ts', true],
    ['*.md', 'docs/x.md', false], // `*` does not cross `/`
    ['**/*.md', 'docs/x.md', true],
    ['docs/*.md', 'docs/x.md', true],
    ['src/store', 'src/store/a.ts', true], // a plain path is a directory and everything under it
    ['src/store', 'src/storage/a.ts', false],
    ['src/store/a.ts', 'src/store/a.ts', true],
    ['src/store/a.ts', 'src/store/b.ts', false],
    ['src/**/test-*.ts', 'src/x/y/test-a.ts', true],
    ['src/*.ts', 'src/x/a.ts', false],
    ['src/**', 'docs/**', false],
    ['**', 'anything/at/all', true],
    ['a*.ts', '*b.ts', true], // two wildcards: may overlap (ab.ts)
    ['a*.ts', 'b*.ts', false],
    ['src/?.ts', 'src/a.ts', true],
    ['src/?.ts', 'src/ab.ts', false],
  ])('%s vs %s → %s, both ways', (a, b, want) => {
    expect(globsOverlap(a, b)).toBe(want);
    expect(globsOverlap(b, a)).toBe(want);
  });
});

describe('globsOverlap on paths over 1024 segments deep', () => {
  // Its memo once keyed (i, j) as i * 1024 + j, so (0, 1030) and (1, 6) shared a slot and a deep
  // path could be judged free of a lease that covers it. 1500 segments fit in PATH_MAX (4096).
  const deep = `${'a/'.repeat(1500)}q`;
  it.each([
    ['**/q', deep],
    ['**/x/**', `${'d/'.repeat(1100)}x`],
    [deep, deep],
  ])('%s overlaps the deep path it covers, both ways', (a, b) => {
    expect(globCovers(a, b)).toBe(true);
    expect(globsOverlap(a, b)).toBe(true);
    expect(globsOverlap(b, a)).toBe(true);
  });
  it('and a deep glob that meets it nowhere stays free', () => {
    // A plain path also covers what is under it (deep/z), so the free one is a glob: no trailing **.
    expect(globsOverlap('**/z', `${'a/'.repeat(1500)}*.q`)).toBe(false);
    expect(globCovers('**/z', deep)).toBe(false);
  });
});

describe('globCovers', () => {
  it.each([
    ['src/**', 'src/store/a.ts', true],
    ['src/store', 'src/store/deep/a.ts', true],
    ['*.md', 'README.md', true],
    ['*.md', 'docs/x.md', false],
    ['docs/*.md', 'docs/x.md', true],
  ])('%s covers %s → %s', (p, f, want) => {
    expect(globCovers(p, f)).toBe(want);
  });
});
