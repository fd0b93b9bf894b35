/**
 * The page's files: built once with the package by scripts/build-dashboard.mjs into
 * dist/dashboard/assets/ (index.html, app.js — the page's code with preact and htm bundled —,
 * style.css, and dagre's own build for the task graph). Nothing is bundled at run time. Only the
 * files named in the build's manifest are served.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.html': 'text/html; charset=utf-8', '.map': 'application/json' };
const SERVED = new Set(['app.js', 'style.css', 'dagre.min.js', 'index.html']);

let dir: string | undefined;
/** dist/dashboard/assets beside this module (built), else the package's dist/ (running from src/, in tests). */
function assetsDir(): string {
  if (dir) return dir;
  const here = fileURLToPath(new URL('.', import.meta.url));
  const candidates = [join(here, 'assets'), join(here, '..', '..', 'dist', 'dashboard', 'assets')];
  const found = candidates.find((c) => existsSync(join(c, 'index.html')));
  if (!found) throw new Error(`The dashboard's page is not built (looked in ${candidates.join(', ')}): run \`npm run build\`.`);
  return (dir = found);
}

/** One served file: its bytes and content type, or undefined for a name not in the build. */
export async function readAsset(name: string): Promise<{ body: Buffer; type: string } | undefined> {
  if (!SERVED.has(name)) return undefined;
  const ext = name.slice(name.lastIndexOf('.'));
  return { body: await readFile(join(assetsDir(), name)), type: TYPES[ext] ?? 'application/octet-stream' };
}

/** The page itself. @throws Error when the package was not built */
export async function pageHtml(): Promise<Buffer> {
  return readFile(join(assetsDir(), 'index.html'));
}
