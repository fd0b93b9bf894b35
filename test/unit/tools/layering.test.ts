/**
 * The catalogue's place in the layering (docs/decisions.md "One tool catalogue"): src/tools imports
 * core, protocol and errors, never the surfaces (runtime, mcp, cli, tui) or the store; and nothing
 * below it (core, store, protocol) imports it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

async function importsOf(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  return [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
}

describe('src/tools in the layering', () => {
  it('imports no surface and not the store', async () => {
    const offending: string[] = [];
    for (const file of await sources('src/tools')) {
      for (const spec of await importsOf(file)) if (/\/(runtime|mcp|cli|tui|store)\//.test(spec)) offending.push(`${file}: ${spec}`);
    }
    expect(offending).toEqual([]);
  });

  it('is imported by nothing below it', async () => {
    const offending: string[] = [];
    for (const layer of ['src/core', 'src/store', 'src/protocol']) {
      for (const file of await sources(layer)) {
        for (const spec of await importsOf(file)) if (/\/tools\//.test(spec) && !spec.includes('/runtime/tools/')) offending.push(`${file}: ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
