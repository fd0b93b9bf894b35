/**
 * Each Redis script gets only the prelude helpers it uses (src/store/redis/scripts.ts `preludeFor`):
 * every prelude name a script's assembled source mentions outside comments and strings is declared
 * in it (a helper left out would be a nonexistent global when the script runs), and helpers no part
 * of the script mentions are left out.
 */
import { describe, expect, it } from 'vitest';
import { preludeBlocks, preludeFor, preludeSource, script, SCRIPT_NAMES } from '../../../src/store/redis/scripts.js';

const prelude = preludeSource();
const names = preludeBlocks(prelude).blocks.flatMap((b) => b.names);

/** `source` without comments and string literals. */
function code(source: string): string {
  return source.replace(/--\[\[[\s\S]*?\]\]|--[^\n]*/g, '').replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, "''");
}

describe('the prelude helpers of each script', () => {
  it('cuts the prelude into every top-level declaration, names of multiple assignments included', () => {
    expect(names).toEqual(expect.arrayContaining(['R', 'JOURNAL_MAXLEN', 'EVENTS', 'HINTS', 'INBOX_PARTS', 'fail', 'done', 'emit', 'hint', 'iso', 'task_changes']));
    expect(new Set(names).size).toBe(names.length);
    // Every line of the prelude lands in the header or in exactly one declaration.
    const { head, blocks } = preludeBlocks(prelude);
    expect([head, ...blocks.map((b) => b.lines.join('\n'))].join('\n')).toBe(prelude);
  });

  it.each(SCRIPT_NAMES)('%s declares every prelude name it uses', (name) => {
    const source = code(script(name).source);
    for (const n of names) {
      if (!new RegExp(`\\b${n}\\b`).test(source)) continue;
      expect(source, `${name} uses ${n}`).toMatch(new RegExp(`^local\\s+(function\\s+${n}\\b|[\\w\\s,]*\\b${n}\\b[\\w\\s,]*=)`, 'm'));
    }
  });

  it('takes a helper that only another helper uses, and leaves out the ones nothing uses', () => {
    const got = preludeFor("return done(KEYS[1], 'x')", prelude);
    expect(got).toMatch(/^local function done\b/m);
    expect(got).toMatch(/^local function hint\b/m);
    expect(got).toMatch(/^local EVENTS, HINTS\b/m);
    expect(got).toMatch(/^local R = redis.call/m);
    expect(got).not.toMatch(/^local function (task_changes|iso|emit|fail)\b/m);
    expect(script('append-messages').source).not.toMatch(/^local function (task_changes|unassign|release_reader_leases)\b/m);
  });
});
