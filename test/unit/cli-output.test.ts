/**
 * src/cli/output.ts is the one place the CLI writes to the terminal: no other file of src/cli/
 * writes to process.stdout or process.stderr, listens on them, or calls console (reading a
 * property such as `isTTY` or `columns` is not writing). The TUI (src/tui/) is not the CLI.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../src/cli/', import.meta.url));

/** A use of process.stdout/stderr other than reading isTTY, columns or rows; or any console call. */
const WRITES = /\bprocess\.(?:stdout|stderr)\b(?!\.(?:isTTY|columns|rows)\b)|\bconsole\s*\.|from 'node:(?:process|console)'/;

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sourceFiles(path)));
    else if (/\.[cm]?tsx?$/.test(e.name)) out.push(path);
  }
  return out;
}

/** `file:line: text` for each line of `text` that writes to the terminal. */
function writesIn(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (WRITES.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('CLI output', () => {
  it('goes through src/cli/output.ts alone', async () => {
    const found: string[] = [];
    for (const path of await sourceFiles(CLI)) {
      const file = relative(CLI, path).split('\\').join('/');
      if (file === 'output.ts') continue;
      found.push(...writesIn(file, await readFile(path, 'utf8')));
    }
    expect(found, 'write through writeStdout/writeStderr/emit/reportError of src/cli/output.ts').toEqual([]);
  });

  it('catches a direct write, a stream passed on, and console', () => {
    expect(writesIn('x.ts', 'process.stdout.write("a");')).toHaveLength(1);
    expect(writesIn('x.ts', 'run({ out: process.stderr });')).toHaveLength(1);
    expect(writesIn('x.ts', 'console.log(1);')).toHaveLength(1);
    expect(writesIn('x.ts', "import { stdout } from 'node:process';")).toHaveLength(1);
    expect(writesIn('x.ts', 'if (process.stdout.isTTY) wrap(process.stdout.columns);')).toEqual([]);
  });
});
