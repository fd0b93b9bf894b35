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
