/**
 * Every fix hint carries the store and team of the failing command (issue 23 item 4): the CLI's
 * one error writer (src/cli/output.ts) rewrites each backticked `` `mailroom …` `` suggestion with
 * the command's --store/--root/--claude/--team (src/core/text/hint-scope.ts). A suggestion written
 * without backticks would be printed as it is and, pasted, act on ~/.mailroom: this test reads
 * every `new MailroomError(` message in src/ and fails on such a suggestion.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scopeHints } from '../../src/core/text/hint-scope.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const VERBS = 'team|task|inbox|message|dead-letter|run|agent|mcp|watch|dashboard|lease|log|doctor|store|bridge|requests|approve|deny';
/** `mailroom <verb>` not right after a backtick (plain or escaped in a template literal). */
const BARE = new RegExp(`(?:^|[^\`\\\\\\w/.-])(mailroom (?:${VERBS})\\b[^\`'"\\n]{0,30})`, 'g');
/** Prose that names a command without suggesting one to run (no store to carry). */
const PROSE = [/^mailroom bridge (needs|connects|is)\b/, /^mailroom team key\b/];

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? sources(join(dir, e.name)) : Promise.resolve(/\.(ts|tsx|cts|mts)$/.test(e.name) ? [join(dir, e.name)] : []))));
  return nested.flat();
}

/** The text of each `new MailroomError(` call in `text`, up to its details or its end. */
function errorCalls(text: string): string[] {
  return [...text.matchAll(/new MailroomError\(/g)].map((m) => text.slice(m.index, m.index + 800).split(/\{ (?:details|cause)|\n\s*\);?\n/)[0] as string);
}

describe('fix hints', () => {
  it('every suggested command in an error message is backticked, so it carries the failing command\'s store', async () => {
    const bare: string[] = [];
    for (const file of await sources(SRC)) {
      for (const call of errorCalls(await readFile(file, 'utf8'))) {
        for (const m of call.matchAll(BARE)) {
          const hint = m[1] as string;
          if (!PROSE.some((p) => p.test(hint))) bare.push(`${file.slice(SRC.length)}: ${hint}`);
        }
      }
    }
    expect(bare).toEqual([]);
  });

  it('the checker sees a bare suggestion, and scopeHints rewrites the backticked form', () => {
    expect([...'Run mailroom doctor --fix.'.matchAll(BARE)].length).toBe(1);
    expect([...'Run `mailroom doctor --fix`.'.matchAll(BARE)].length).toBe(0);
    expect([...'Run \\`mailroom doctor --fix\\`.'.matchAll(BARE)].length).toBe(0);
    expect(scopeHints('Ask the holder (`mailroom team send bob …`)', ['--store', 'redis://h:1'])).toBe('Ask the holder (`mailroom --store redis://h:1 team send bob …`)');
  });
});
