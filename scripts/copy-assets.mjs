#!/usr/bin/env node
// Part of `npm run build`: copies the files tsc does not emit (the Redis store's Lua scripts)
// from src/ to dist/, keeping their paths.
import { cp, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');

for (const entry of await readdir(src, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.lua')) continue;
  const from = join(entry.parentPath, entry.name);
  await cp(from, join(root, 'dist', relative(src, from)));
}
