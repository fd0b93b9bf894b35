#!/usr/bin/env node
// Part of `npm run build`: builds `mailroom dashboard`'s page once, into dist/dashboard/assets/.
// The page's code (src/dashboard/page/, TypeScript) is bundled with preact and htm into one ES
// module, app.js; index.html and style.css are copied; dagre (the task graph's layout) is its own
// prebuilt file, loaded as a classic script. The server serves exactly these files.
import { build } from 'esbuild';
import { cp, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist', 'dashboard', 'assets');
const PAGE = join(ROOT, 'src', 'dashboard', 'page');
const require = createRequire(import.meta.url);

await mkdir(OUT, { recursive: true });
await build({
  entryPoints: [join(PAGE, 'main.ts')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: process.env.BUNDLE_READABLE !== '1',
  outfile: join(OUT, 'app.js'),
  logLevel: 'warning',
  legalComments: 'none',
});
await cp(join(PAGE, 'index.html'), join(OUT, 'index.html'));
await cp(join(PAGE, 'style.css'), join(OUT, 'style.css'));
await cp(join(dirname(require.resolve('@dagrejs/dagre/package.json')), 'dist', 'dagre.min.js'), join(OUT, 'dagre.min.js'));
