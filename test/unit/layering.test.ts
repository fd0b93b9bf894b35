/**
 * The layering of docs/architecture.md: adapters (cli, tui, mcp, bridge) → runtime → tools → core
 * → store contracts → domain → protocol. Every folder of src/ has a layer, every source file kind
 * (.ts, .tsx, .cts, .mts) is read, and static, dynamic and `require` imports all count.
 *
 * - Nothing above src/store/ imports a backend or a store internal: only the contracts
 *   (team-store, host-store, health), the selection and open.ts, which alone reaches src/store/fs/
 *   and src/store/redis/. Nor `node:fs`: it gets opened stores and never knows it is on a
 *   filesystem. (The exceptions: src/dashboard/assets.ts reads the page files the package ships; src/cli/launch.cts, the loader bin/mailroom.js runs: it reads
 *   the CLI bundle and its V8 code cache, not team state, and must not load the bundle it loads.)
 * - The two backends do not import each other; the contracts import no backend.
 * - src/domain/ imports only protocol, errors, itself and pure computation (no I/O: node:crypto's
 *   hashes, fastest-levenshtein's edit distance for did-you-mean), so every backend can use it.
 * - No layer imports one above it; the TUI does not import the CLI (the CLI starts the TUI), and
 *   takes its streams and arguments from the CLI instead of reading `process.stdout`, `stdin`,
 *   `stderr` or `argv` itself.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Each folder (or top-level file) of src/ and the layers it may import besides itself. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  errors: [],
  version: [],
  // A process-level test hook (SIGSTOP at a named point), used by the files store's write step, the MCP hand-out and a teammate's looked-at take.
  'test-freeze': [],
  // Timing marks on the delivery path (MAILROOM_TRACE_MARKS=1), written on stderr; imports nothing.
  'trace-marks': [],
  protocol: ['errors'],
  domain: ['protocol', 'errors'],
  store: ['domain', 'protocol', 'errors', 'test-freeze', 'trace-marks'],
  core: ['store', 'domain', 'protocol', 'errors'],
  tools: ['core', 'domain', 'protocol', 'errors'],
  runtime: ['tools', 'core', 'store', 'domain', 'protocol', 'errors', 'version', 'trace-marks', 'test-freeze'],
  bridge: ['core', 'store', 'domain', 'protocol', 'errors', 'version', 'test-freeze'],
  mcp: ['runtime', 'tools', 'core', 'store', 'domain', 'protocol', 'errors', 'version', 'test-freeze'],
  tui: ['runtime', 'core', 'store', 'domain', 'protocol', 'errors', 'version'],
  // The browser dashboard's server (its page, src/dashboard/page/, imports only preact, htm and ../wire.ts).
  dashboard: ['runtime', 'core', 'store', 'domain', 'protocol', 'errors', 'version'],
  cli: ['tui', 'mcp', 'bridge', 'dashboard', 'runtime', 'tools', 'core', 'store', 'domain', 'protocol', 'errors', 'version'],
  // The package entries: contracts and use cases (index), backend internals (internals).
  index: ['bridge', 'runtime', 'tools', 'core', 'store', 'domain', 'protocol', 'errors', 'version'],
  internals: ['store', 'domain', 'protocol', 'errors'],
};

/** Store modules the layers above it may import: the contracts, the selection, the one place that opens a backend. */
const STORE_API = /^store\/(team-store|host-store|health|selection|open)\.ts$/;
/** Pure dependencies src/protocol may use (zod; node:crypto's hashes for ids and signatures). */
const PROTOCOL_PACKAGES = /^(zod|node:crypto)$/;
/**
 * The one protocol module that reads a device: protocol/random.ts draws random ids from
 * /dev/urandom (the kernel's generator, which node:crypto reads too) so a one-shot verb need not
 * load node:crypto. It opens no team state.
 */
const PROTOCOL_DEVICE_READER = { file: 'protocol/random.ts', packages: /^node:(fs|module)$/ };
/** Pure dependencies src/domain may use. */
const DOMAIN_PACKAGES = /^(node:crypto|fastest-levenshtein)$/;
/** The CLI's loader (see the module comment). */
// src/cli/lease-install.ts writes a repository's git hook and Claude Code settings file (the user's files, not team storage).
// src/core/leases/real-paths.ts resolves symbolic links in the user's repository paths a lease names (not team storage).
// src/cli/output.ts writes its results to descriptors 1 and 2 with fs.writeSync (the terminal, not team storage).
const FS_ALLOWED_ABOVE_STORE = new Set(['cli/output.ts', 'cli/launch.cts', 'dashboard/assets.ts', 'cli/lease-install.ts', 'core/leases/real-paths.ts']);

interface Import {
  /** Importing file, relative to src/ (e.g. `core/tasks/board.ts`). */
  file: string;
  /** The specifier as written. */
  spec: string;
  /** For a relative import: the imported source file relative to src/ (`.js` → `.ts`/`.tsx`, …). */
  target?: string;
}

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(path)));
    else if (/\.(ts|tsx|cts|mts)$/.test(e.name)) out.push(relative(SRC, path).split('\\').join('/'));
  }
  return out;
}

const ALL = await files(SRC);
const KNOWN = new Set(ALL);

function resolveSource(from: string, spec: string): string | undefined {
  const path = posix.normalize(posix.join(posix.dirname(from), spec));
  const stem = path.replace(/\.(js|cjs|mjs|jsx)$/, '');
  return [path, `${stem}.ts`, `${stem}.tsx`, `${stem}.cts`, `${stem}.mts`].find((p) => KNOWN.has(p));
}

async function importsOf(file: string): Promise<Import[]> {
  const text = await readFile(join(SRC, file), 'utf8');
  const specs = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specs.map((spec) => (spec.startsWith('.') ? { file, spec, target: resolveSource(file, spec) } : { file, spec }));
}

const IMPORTS = (await Promise.all(ALL.map(importsOf))).flat();

/** The layer of a path relative to src/: its first folder, or the top-level file's name. */
function layerOf(path: string): string {
  const [first, ...rest] = path.split('/');
  return rest.length === 0 ? first!.replace(/\.\w+$/, '') : first!;
}

const ABOVE_STORE = Object.keys(MAY_IMPORT).filter((l) => MAY_IMPORT[l]!.includes('store') && l !== 'store' && l !== 'internals');

describe('layering', () => {
  it('knows every folder and top-level file of src/', () => {
    expect([...new Set(ALL.map(layerOf))].filter((l) => !(l in MAY_IMPORT))).toEqual([]);
  });

  it('resolves every relative import to a source file', () => {
    expect(IMPORTS.filter((i) => i.spec.startsWith('.') && i.target === undefined && !i.spec.endsWith('.json'))).toEqual([]);
  });

  it('has no import from a layer above, or beside, the importer', () => {
    const bad = IMPORTS.filter((i) => i.target && layerOf(i.target) !== layerOf(i.file) && !MAY_IMPORT[layerOf(i.file)]!.includes(layerOf(i.target)));
    expect(bad).toEqual([]);
  });

  it.each(ABOVE_STORE)('src/%s uses only the store contracts and open.ts, and no file system', (layer) => {
    const mine = IMPORTS.filter((i) => layerOf(i.file) === layer);
    const internals = mine.filter((i) => i.target?.startsWith('store/') && !STORE_API.test(i.target));
    const fs = mine.filter((i) => /^(node:)?fs(\/promises)?$/.test(i.spec) && !FS_ALLOWED_ABOVE_STORE.has(i.file));
    expect([...internals, ...fs]).toEqual([]);
  });

  it('the store contracts import no backend; only open.ts does', () => {
    const top = IMPORTS.filter((i) => /^store\/[^/]+$/.test(i.file) && i.file !== 'store/open.ts');
    expect(top.filter((i) => /^store\/(fs|redis)\//.test(i.target ?? ''))).toEqual([]);
  });

  it('the filesystem and Redis backends do not import each other', () => {
    const cross = IMPORTS.filter(
      (i) => (i.file.startsWith('store/fs/') && i.target?.startsWith('store/redis/')) || (i.file.startsWith('store/redis/') && i.target?.startsWith('store/fs/')),
    );
    expect(cross).toEqual([]);
  });

  it('src/domain imports only protocol, errors, pure computation (node:crypto, fastest-levenshtein) and itself', () => {
    const bad = IMPORTS.filter((i) => layerOf(i.file) === 'domain' && (i.target === undefined ? !DOMAIN_PACKAGES.test(i.spec) : !['domain', 'protocol', 'errors'].includes(layerOf(i.target))));
    expect(bad).toEqual([]);
  });

  it('src/protocol imports only zod, node:crypto, errors and itself (and random.ts the /dev/urandom device)', () => {
    const allowed = (i: Import): boolean => PROTOCOL_PACKAGES.test(i.spec) || (i.file === PROTOCOL_DEVICE_READER.file && PROTOCOL_DEVICE_READER.packages.test(i.spec));
    const bad = IMPORTS.filter((i) => layerOf(i.file) === 'protocol' && (i.target === undefined ? !allowed(i) : !['protocol', 'errors'].includes(layerOf(i.target))));
    expect(bad).toEqual([]);
  });

  it('src/tui imports nothing of src/cli, and takes its streams and arguments from the CLI', async () => {
    expect(IMPORTS.filter((i) => layerOf(i.file) === 'tui' && i.target !== undefined && layerOf(i.target) === 'cli')).toEqual([]);
    const reads: string[] = [];
    for (const file of ALL.filter((f) => layerOf(f) === 'tui')) {
      const text = await readFile(join(SRC, file), 'utf8');
      for (const m of text.matchAll(/process\.(stdout|stdin|stderr|argv)\b/g)) {
        // Mentions in comments do not count.
        const line = text.slice(text.lastIndexOf('\n', m.index) + 1, m.index);
        if (!/^\s*(\*|\/\/)/.test(line)) reads.push(`${file}: ${m[0]}`);
      }
    }
    expect(reads).toEqual([]);
  });
});
