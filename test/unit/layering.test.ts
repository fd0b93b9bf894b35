/**
 * The layering of docs/decisions.md "Layers": cli/tui/runtime/mcp → core → store → domain →
 * protocol. Nothing above src/store/ imports a path rule, the layout, a lock or file helper, or the
 * filesystem backend, nor `node:fs`: it gets opened stores and never knows it is on a filesystem.
 * src/domain/ imports only protocol, errors, itself and pure computation (no I/O: node:crypto's
 * hashes, fastest-levenshtein's edit distance for did-you-mean), so every backend can use it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(path)));
    else if (/\.tsx?$/.test(e.name)) out.push(path);
  }
  return out;
}

async function imports(layer: string): Promise<Array<{ file: string; spec: string }>> {
  const out: Array<{ file: string; spec: string }> = [];
  for (const file of await files(join(SRC, layer))) {
    const text = await readFile(file, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/g)) out.push({ file: relative(SRC, file), spec: m[1]! });
    for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ file: relative(SRC, file), spec: m[1]! });
  }
  return out;
}

/** Store modules the layers above may use: the interfaces, the one place that opens a store and health shapes (this machine's process probe and user files are the HostStore's). */
const STORE_API = /\/store\/(team-store|host-store|selection|open|health)\.js$/;

describe('layering', () => {
  it.each(['core', 'runtime', 'mcp', 'cli', 'tui', 'tools'])('src/%s uses only the store API and no file system', async (layer) => {
    const bad = (await imports(layer)).filter(({ spec }) => (spec.includes('/store/') && !STORE_API.test(spec)) || spec === 'node:fs' || spec === 'node:fs/promises');
    expect(bad).toEqual([]);
  });

  it('src/domain imports only protocol, errors, pure computation (node:crypto, fastest-levenshtein) and itself', async () => {
    const bad = (await imports('domain')).filter(({ spec }) => !/^\.\/|^\.\.\/protocol\/|^\.\.\/errors\.js$|^node:crypto$|^fastest-levenshtein$/.test(spec));
    expect(bad).toEqual([]);
  });

  it('nothing below core imports core, runtime, mcp, cli or tui', async () => {
    const below = [...(await imports('store')), ...(await imports('domain')), ...(await imports('protocol'))];
    expect(below.filter(({ spec }) => /\.\.\/(\.\.\/)?(core|runtime|mcp|cli|tui)\//.test(spec))).toEqual([]);
  });
});
