/**
 * docs/cli.md's "Exit codes" table against src/errors.ts (trial 2, item 7): the table lacked
 * LEASE_HELD, LEASE_NOT_FOUND and MISSING_CAPABILITY. Every error code of the `ErrorCode` union is
 * listed exactly once, in the row of the exit code `exitCodeFor` gives it, and the table names no
 * code that does not exist — so the two cannot drift apart again.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { MailroomError, exitCodeFor, isErrorCode, type ErrorCode } from '../../src/errors.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The codes of the `ErrorCode` union, as src/errors.ts declares them. */
function declaredCodes(): ErrorCode[] {
  const lines = read('src/errors.ts').split('\n');
  const from = lines.indexOf('export type ErrorCode =') + 1;
  expect(from).toBeGreaterThan(0);
  const out: ErrorCode[] = [];
  for (const line of lines.slice(from)) {
    if (line.trim() === '' || line.trimStart().startsWith('//')) continue;
    const m = /^\s+\| '([A-Z][A-Z0-9_]*)'(;?)$/.exec(line);
    if (!m) break;
    out.push(m[1] as ErrorCode);
    if (m[2] === ';') break;
  }
  return out;
}

/** Exit code → the error codes the table's third column names (backticked), per row. */
function documented(): Array<{ exit: number; codes: string[] }> {
  const doc = read('docs/cli.md');
  const start = doc.indexOf('\n## Exit codes\n');
  expect(start).toBeGreaterThan(0);
  const section = doc.slice(start + 1, doc.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((l) => /^\| \d+ \|/.test(l));
  return rows.map((row) => {
    const cells = row.split(/(?<!\\)\|/).map((c) => c.trim());
    // A code named inside a parenthesis explains another (`TEAM_LOST` (… not a plain `TEAM_NOT_FOUND`)): not listed there.
    let text = cells[3] ?? '';
    for (let before = ''; before !== text; ) [before, text] = [text, text.replace(/\([^()]*\)/g, '')];
    const codes = [...text.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!);
    return { exit: Number(cells[1]), codes };
  });
}

it('declares a non-trivial list of codes, each known to exitCodeFor', () => {
  const codes = declaredCodes();
  expect(codes.length).toBeGreaterThan(40);
  expect(codes).toContain('LEASE_HELD');
  for (const code of codes) expect(isErrorCode(code), code).toBe(true);
});

it('lists every error code once, in the row of its exit code, and no other', () => {
  const rows = documented();
  expect(rows.map((r) => r.exit)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const listed = rows.flatMap((r) => r.codes.map((code) => ({ code, exit: r.exit })));
  const seen = listed.map((l) => l.code);
  expect(seen.filter((c, i) => seen.indexOf(c) !== i), 'listed twice').toEqual([]);
  for (const { code, exit } of listed) {
    expect(isErrorCode(code), `docs/cli.md lists ${code}, which src/errors.ts does not declare`).toBe(true);
    expect(exit, `${code} is in the exit ${exit} row`).toBe(exitCodeFor(new MailroomError(code as ErrorCode, 'x')));
  }
  const missing = declaredCodes().filter((c) => !seen.includes(c));
  expect(missing, 'error codes missing from docs/cli.md "Exit codes"').toEqual([]);
});
