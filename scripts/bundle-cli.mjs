#!/usr/bin/env node
// Bundles the CLI (src/cli/main.ts and everything it reaches) into ONE CommonJS file,
// dist/mailroom.cjs, which bin/mailroom.js runs from a V8 code cache (src/cli/launch.cts), and each
// hot verb (src/cli/verbs/*.ts) into one of its own, dist/mailroom-<verb>.cjs. Run by
// `npm run build` after tsc; the library (dist/index.js, the package's `exports`) is tsc's output
// and is not affected. Why one CommonJS file: Node 20 can cache compiled code only for scripts
// (vm.Script cachedData), not for ES modules; see docs/decisions.md "CLI start-up".
//
// Parts that only some verbs use (the MCP server, the runtime, the TUI, yaml) stay in the file
// behind esbuild's lazy module wrappers: they are parsed, but not run until a verb imports them.
// Packages that are never inlined (EXTERNAL) load from node_modules when a verb needs them.
//
// BUNDLE_READABLE=1 keeps whitespace (to read the output). Start-up tweaks, each a plugin below:
//   - zod: `import { z } from 'zod'` pulls in all of zod (every locale, JSON-schema tools);
//     `import * as z` lets esbuild keep only what is used. Same API, same object.
//   - string-width (yargs' help layout): builds an Intl.Segmenter and Unicode regexps on load;
//     it is set up on first use, and main.ts keeps yargs from rendering help it was not asked for.
//   - assert (yargs' two argument checks): node:assert costs several ms to load.
//   - ink: ES module with a top-level await (yoga-layout), which require() cannot load; the TUI
//     entry imports it first (a real import()) and the TUI modules read that module object.
//   - node:crypto, node:child_process: loading either costs ~3 ms (child_process brings net and
//     dgram); our sources' imports of them get wrappers that load the module on their first call (a
//     files send needs no crypto: its random ids come from protocol/random.ts; `mailroom mcp` runs
//     no hook before it answers, so it spawns nothing).
//   - yargs' platform shim reads process.stdout.columns on load, which builds the stdout stream
//     (~2 ms, on a pipe or terminal more: net, tty); it is made a getter, read when help is laid out.
//   - import.meta.url: each module sees the URL of its tsc-built file in dist/, so relative
//     paths (package.json for the version, bin/mailroom.js for spawned agents) resolve as there.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SDK_TYPES, lazySdkTypesSource } from './lazy-sdk-types.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
/**
 * Entries: the full CLI (dist/mailroom.cjs) and each hot verb's own bundle, src/cli/verbs/<name>.ts
 * → dist/mailroom-<name>.cjs (the launcher picks one from the command words, src/cli/launch.cts).
 * Each output is complete on its own: one process runs one bundle, so no module has two instances.
 */
const VERBS = (await readdir(join(ROOT, 'src', 'cli', 'verbs'))).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
const ENTRIES = { mailroom: join(ROOT, 'src/cli/main.ts'), ...Object.fromEntries(VERBS.map((v) => [`mailroom-${v}`, join(ROOT, 'src/cli/verbs', `${v}.ts`)])) };
/** Loaded from node_modules, never inlined: large, native parts, or needing their own module instance. */
export const EXTERNAL = ['ink', 'react', 'react/*', '@anthropic-ai/sdk', '@anthropic-ai/sdk/*', 'openai', 'openai/*'];
/**
 * Name of the import() function the launcher passes in: V8 11 (Node 20) loses a script's dynamic
 * import callback when it is compiled from a code cache, so the bundle imports ES modules through it.
 */
const DYNAMIC_IMPORT = '__mailroom_import';
const INK_GLOBAL = "globalThis[Symbol.for('mailroom.ink')]";

/**
 * Our sources: `import { z } from 'zod'` → `import * as z from 'zod'` (so esbuild can tree-shake
 * zod), and import.meta.url → the URL of the module's tsc-built file, dist/<same path>.js.
 */
const ourSources = {
  name: 'our-sources',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/, namespace: 'file' }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      text = text.replace(/^import \{ z \} from 'zod';$/gm, "import * as z from 'zod';");
      // import('<package>') → the launcher's import function (see DYNAMIC_IMPORT).
      text = text.replace(/\bimport\((['"])([^.'"][^'"]*)\1\)/g, `${DYNAMIC_IMPORT}($1$2$1)`);
      const built = relative(join(ROOT, 'src'), args.path).replace(/\.tsx?$/, '.js').split(/[\\/]/).join('/');
      text = text.replaceAll('import.meta.url', `require('node:url').pathToFileURL(require('node:path').join(__dirname, ${JSON.stringify(built)})).href`);
      return { contents: text, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

/** string-width, set up on its first call (help text only: main.ts stops yargs from pre-rendering help). */
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) => (args.namespace === 'lazy-string-width' ? undefined : { path: 'string-width', namespace: 'lazy-string-width', pluginData: args.resolveDir }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({
      resolveDir: args.pluginData,
      // require() of a bundled module runs its lazy wrapper: string-width's set-up happens on first use.
      contents: "let impl; export default function stringWidth(text, options) { impl ??= require('string-width').default; return impl(text, options); }",
    }));
  },
};

/** yargs uses assert.strictEqual / notStrictEqual only; node:assert itself is slow to load. */
const lightAssert = {
  name: 'light-assert',
  setup(b) {
    b.onResolve({ filter: /^assert$/ }, (args) => (/[\\/]node_modules[\\/]yargs[\\/]/.test(args.importer) ? { path: 'assert', namespace: 'light-assert' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'light-assert' }, () => ({
      contents: [
        "export function strictEqual(a, b, message) { if (a !== b) throw new Error(message ?? `Expected ${String(a)} to be ${String(b)}`); }",
        "export function notStrictEqual(a, b, message) { if (a === b) throw new Error(message ?? `Expected ${String(a)} not to be ${String(b)}`); }",
      ].join('\n'),
    }));
  },
};

/**
 * Parts of the MCP SDK that `mailroom mcp` never runs before it answers (and mostly never): its
 * server builds an ajv instance with every format in its constructor (used only to check
 * elicitation answers), and its zod-compat layer imports zod v3 and the v3 JSON-schema converter
 * for v3 schemas (ours are zod v4). Each is replaced, for the SDK's own imports, by a stub that
 * loads the real module on first use: same behaviour, ~270 KB of modules not evaluated at start.
 */
const LAZY_SDK = [
  // [importer (SDK file), specifier, stub module text; `__real` is the real module, loaded on first use]
  [/[\\/]@modelcontextprotocol[\\/]sdk[\\/].*[\\/]server[\\/]index\.js$/, '../validation/ajv-provider.js',
    'export class AjvJsonSchemaValidator { constructor(ajv) { this._ajv = ajv; } getValidator(schema) { this._real ??= new (__real().AjvJsonSchemaValidator)(this._ajv); return this._real.getValidator(schema); } }'],
  [/[\\/]@modelcontextprotocol[\\/]sdk[\\/].*[\\/]server[\\/]zod-compat\.js$/, 'zod/v3', 'export function object(shape) { return __real().object(shape); }'],
  [/[\\/]@modelcontextprotocol[\\/]sdk[\\/].*[\\/]server[\\/]zod-json-schema-compat\.js$/, 'zod-to-json-schema', 'export function zodToJsonSchema(schema, options) { return __real().zodToJsonSchema(schema, options); }'],
];
const lazySdk = {
  name: 'lazy-sdk-parts',
  setup(b) {
    for (const [importer, specifier, stub] of LAZY_SDK) {
      const escaped = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      b.onResolve({ filter: new RegExp(`^${escaped}$`) }, async (args) => {
        if (args.namespace !== 'file' || !importer.test(args.importer)) return undefined;
        // The file an import would load (the ES module build), so the stub shares its instance.
        const real = await b.resolve(specifier, { kind: 'import-statement', importer: args.importer, resolveDir: args.resolveDir });
        if (real.errors.length > 0) return { errors: real.errors };
        return { path: specifier, namespace: 'lazy-sdk', pluginData: { real: real.path, stub } };
      });
    }
    b.onLoad({ filter: /.*/, namespace: 'lazy-sdk' }, (args) => ({
      resolveDir: ROOT,
      // require() of a bundled ES module runs its lazy wrapper on the first call only.
      contents: `let real; function __real() { return (real ??= require(${JSON.stringify(args.pluginData.real)})); }\n${args.pluginData.stub}`,
    }));
  },
};

/**
 * The MCP SDK's protocol schemas (its types.js: ~170 zod schemas, built when the module loads) as
 * stand-ins built on first use: each top-level `const …Schema = <call>` of that file becomes
 * `lazySchema(() => <call>)` (src/protocol/lazy-schema.ts, the same stand-in our own schemas use),
 * so `mailroom mcp` builds before its first reply only the schemas its server and transport touch
 * (the JSON-RPC envelope, the requests it registers handlers for). The statements are found with
 * TypeScript's parser, not a pattern (scripts/lazy-sdk-types.mjs); the build fails if the file no
 * longer has such declarations. test/unit/cli/mcp-lazy-types.test.ts holds the result to the SDK's
 * own module.
 */
const LAZY_SCHEMA = join(ROOT, 'src', 'protocol', 'lazy-schema.ts');
const lazySdkTypes = {
  name: 'lazy-sdk-types',
  setup(b) {
    b.onLoad({ filter: SDK_TYPES }, async (args) => ({ contents: (await lazySdkTypesSource(await readFile(args.path, 'utf8'), args.path, LAZY_SCHEMA)).text, loader: 'js' }));
  },
};

/**
 * ink has a top-level await, so `require('ink')` fails. The TUI entry (src/tui/run.tsx) is
 * reached through a wrapper that first does a real `import('ink')`; TUI modules then get that
 * module object from a global instead of requiring ink.
 */
const inkByImport = {
  name: 'ink-by-import',
  setup(b) {
    b.onResolve({ filter: /[\\/]tui[\\/]run\.js$/ }, (args) =>
      args.namespace === 'ink-entry' ? undefined : { path: relative(ROOT, join(args.resolveDir, args.path)).replace(/\.js$/, '.tsx'), namespace: 'ink-entry' },
    );
    b.onLoad({ filter: /.*/, namespace: 'ink-entry' }, (args) => ({
      resolveDir: dirname(join(ROOT, args.path)),
      contents: [
        'export async function runTui(options) {',
        `  ${INK_GLOBAL} ??= await ${DYNAMIC_IMPORT}('ink');`,
        `  const { runTui: run } = await import(${JSON.stringify(`./${args.path.split(/[\\/]/).pop().replace(/\.tsx$/, '.js')}`)});`,
        '  return run(options);',
        '}',
      ].join('\n'),
    }));
    b.onResolve({ filter: /^ink$/ }, () => ({ path: 'ink', namespace: 'ink-global' }));
    b.onLoad({ filter: /.*/, namespace: 'ink-global' }, () => ({
      contents: `module.exports = ${INK_GLOBAL} ?? (() => { throw new Error('mailroom: ink was required before it was imported (see scripts/bundle-cli.mjs)'); })();`,
    }));
  },
};

/**
 * `node:crypto` and `node:child_process` for our sources: each function they export, as a wrapper
 * that loads the module on its first call (same behaviour; a verb that hashes, signs or spawns
 * nothing never loads it). A class or constant imported by value would not be found here, and
 * esbuild then fails the build. A wrapper has none of the real function's own properties (no
 * `util.promisify.custom`: promisify(execFile) would resolve to stdout alone), so our sources call
 * these functions and never promisify them.
 */
const LAZY_BUILTINS = ['node:crypto', 'node:child_process'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(${LAZY_BUILTINS.join('|')})$`);
    b.onResolve({ filter }, (args) => (args.namespace === 'file' && /[\\/]src[\\/]/.test(args.importer) ? { path: args.path, namespace: 'lazy-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const mod = await import(args.path);
      const functions = Object.keys(mod).filter((k) => k !== 'default' && /^[a-z]/.test(k) && typeof mod[k] === 'function');
      const wrappers = functions.map((f) => `export function ${f}(...args) { return real().${f}(...args); }`);
      return { contents: [`let mod; function real() { return (mod ??= require(${JSON.stringify(args.path)})); }`, ...wrappers].join('\n') };
    });
  },
};

/** yargs' shim: `stdColumns` read when used (help layout), not when yargs loads (see the list at the top). */
const STD_COLUMNS = "stdColumns: typeof process.stdout.columns !== 'undefined' ? process.stdout.columns : null";
const lazyStdColumns = {
  name: 'lazy-std-columns',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes(STD_COLUMNS)) throw new Error(`bundle-cli: ${args.path} no longer holds \`${STD_COLUMNS}\`; update lazyStdColumns`);
      return { contents: text.replace(STD_COLUMNS, "get stdColumns() { return typeof process.stdout.columns !== 'undefined' ? process.stdout.columns : null; }"), loader: 'js' };
    });
  },
};

const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
const result = await build({
  entryPoints: ENTRIES,
  outdir: DIST,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minifySyntax: true,
  minifyWhitespace: !process.env.BUNDLE_READABLE,
  keepNames: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  external: EXTERNAL,
  plugins: [ourSources, lazyBuiltins, lazyStdColumns, lazyStringWidth, lightAssert, lazySdk, lazySdkTypes, inkByImport],
  define: { 'import.meta.url': '__mailroom_bundle_url' },
  banner: { js: `/* ${pkg.name} ${pkg.version} CLI bundle (scripts/bundle-cli.mjs) */ var __mailroom_bundle_url = require('node:url').pathToFileURL(__filename).href;` },
});
for (const name of Object.keys(ENTRIES)) {
  const out = join(DIST, `${name}.cjs`);
  const code = await readFile(out, 'utf8');
  const left = code.match(/[^\w$.]import\(/g);
  if (left) throw new Error(`bundle-cli: ${left.length} import() call(s) left in ${out}; route them through ${DYNAMIC_IMPORT} (see the comment at DYNAMIC_IMPORT)`);
  // First line: a SHA-256 of the rest, the launcher's compile-cache key (src/cli/launch.cts), so a
  // start-up need not load node:crypto to hash 1 MB.
  await writeFile(out, `// sha256:${createHash('sha256').update(code).digest('hex')}\n${code}`);
}
await writeFile(join(DIST, 'mailroom.meta.json'), JSON.stringify(result.metafile));
