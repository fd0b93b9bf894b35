/**
 * Loads a bundled CLI (dist/mailroom.cjs, or a hot verb's own dist/mailroom-<verb>.cjs: see
 * {@link bundleFor}; built by scripts/bundle-cli.mjs) with a V8 code cache,
 * so a start-up does not parse and compile the CLI again. Node ≥ 22 offers this as
 * `module.enableCompileCache()`; Node 20, which mailroom supports, caches compiled code only for
 * scripts (`vm.Script` `cachedData`), which is why the CLI is bundled as one CommonJS file.
 *
 * The cache lives in `$MAILROOM_COMPILE_CACHE`, else `$XDG_CACHE_HOME/mailroom`, else
 * `~/.cache/mailroom` (a directory of this user's, mode 0700: cached code is executable code).
 * `MAILROOM_COMPILE_CACHE=off` turns it off. An entry is named for the bundle's SHA-256 (written
 * by the build on its first line, `// sha256:<hex>`; a bundle without one is not cached), the
 * install (a hash of the bundle's own path: V8 keeps the script name of the compile that made an
 * entry, so two installs sharing one entry would see each other's path in stack traces and
 * profiles), the Node version and the architecture, and V8 checks it again
 * (`cachedDataRejected`); any failure to read or write it only means compiling as without a cache. Edit dist/mailroom.cjs by hand only with
 * the cache off: the key is the build's hash, not one taken at each start.
 *
 * A CommonJS module (`.cts`, loaded by bin/mailroom.js, itself CommonJS through bin/package.json):
 * starting Node's ES module loader would cost more than the rest of a short command's start.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { commandWords } from './command-words.cjs';

/** The bundled CLI's exports. */
export interface BundledCli {
  /** Runs the CLI with `argv` (without `node` and the script); resolves to the exit code. */
  main(argv: string[]): Promise<number>;
}

/** Path of the CLI bundle: dist/mailroom.cjs, next to this module's directory. */
export const BUNDLE_PATH = join(__dirname, '..', 'mailroom.cjs');

/**
 * The hot verbs' own bundles (src/cli/verbs/<name>.ts → dist/mailroom-<name>.cjs, built by
 * scripts/bundle-cli.mjs): command words → bundle name. Each registers only its verb, so its
 * start-up reads, deserializes and evaluates none of the other commands' code.
 */
export const VERB_BUNDLES: Readonly<Record<string, string>> = {
  'team send': 'send',
  'team broadcast': 'send',
  'team ask': 'ask',
  inbox: 'inbox',
  task: 'task',
  mcp: 'mcp',
};

/** Cache entries kept per cache directory (older ones, of other versions, are removed): a few installs' bundles. */
const KEEP_ENTRIES = 32;

/**
 * The bundle to run for `argv` (without `node` and the script): a verb's own (see
 * {@link VERB_BUNDLES}) when the command words name one, else the full CLI. Help, version and
 * completion requests always go to the full CLI, which knows every command.
 */
export function bundleFor(argv: readonly string[]): string {
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version' || a.startsWith('--get-yargs-completions'))) return BUNDLE_PATH;
  const words = commandWords(argv);
  const name = words && (VERB_BUNDLES[words.slice(0, 2).join(' ')] ?? VERB_BUNDLES[words[0] as string]);
  return name ? join(__dirname, '..', `mailroom-${name}.cjs`) : BUNDLE_PATH;
}


/** Directory of the code cache, or undefined when it is turned off. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const setting = env.MAILROOM_COMPILE_CACHE;
  if (setting === 'off' || setting === '0') return undefined;
  if (setting) return setting;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'mailroom');
}

/**
 * Compiles and runs the bundle `bundlePath` (default: the full CLI; see {@link bundleFor}) (from the code cache when there is a valid entry) and returns its
 * exports. A missing or rejected entry is written after `main` has run once (or as the process
 * exits, when main ended it), so it also holds the functions that run compiled (see {@link BundledCli}). Throws only when the bundle itself is
 * missing (`npm run build` makes it).
 */
export function loadCli(bundlePath: string = BUNDLE_PATH): BundledCli {
  let source: Buffer;
  try {
    source = readFileSync(bundlePath);
  } catch (err) {
    // A verb's own bundle missing (a build older than the launcher): the full CLI runs the verb too.
    if (bundlePath === BUNDLE_PATH || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return loadCli(BUNDLE_PATH);
  }
  const dir = compileCacheDir();
  const hash = /^\/\/ sha256:([0-9a-f]{64})\n/.exec(source.subarray(0, 80).toString('latin1'))?.[1];
  const entry = dir && hash && join(dir, cacheEntryName(hash, bundlePath));
  const cachedData = entry ? readOrUndefined(entry) : undefined;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __mailroom_import) {${source.toString('utf8')}\n})`, { filename: bundlePath, cachedData });
  const module = { exports: {} as BundledCli };
  // import() inside a script compiled from a code cache fails on Node 20 (V8 drops the script's
  // dynamic-import callback), so the bundle imports ES modules (ink) through this one.
  const importModule = (specifier: string): Promise<unknown> => import(specifier);
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundlePath), module, bundlePath, dirname(bundlePath), importModule);
  const cli = module.exports;
  if (!entry || (cachedData && !script.cachedDataRejected)) return cli;
  let written = false;
  const write = (): void => {
    if (written) return;
    written = true;
    writeEntry(entry, script.createCachedData());
  };
  // `--help`, `--version` and a verb that ends the process itself never return from main: their
  // entry is written as the process exits (a synchronous write, allowed in an exit listener).
  process.once('exit', write);
  return {
    main: async (argv) => {
      const code = await cli.main(argv);
      write();
      process.off('exit', write);
      return code;
    },
  };
}

/**
 * File name of the cache entry for the bundle with SHA-256 `hash` (hex) at `bundlePath`: one per
 * build, install, Node version and architecture (see the module comment).
 */
export function cacheEntryName(hash: string, bundlePath: string): string {
  return `cli-${hash.slice(0, 20)}-${pathHash(bundlePath)}-${process.version}-${process.arch}.v8`;
}

/** FNV-1a (32 bit) of `text` in hex: names the install without loading node:crypto. */
function pathHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Writes a cache entry atomically (temp file + rename), then trims the directory; never throws. */
function writeEntry(path: string, data: Buffer): void {
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, data, { mode: 0o600 });
    renameSync(temp, path);
    trim(dir, path);
  } catch {
    // A read-only or full disk: the next start compiles again.
  }
}

function trim(dir: string, keep: string): void {
  const entries = readdirSync(dir)
    .filter((name) => name.startsWith('cli-') && name.endsWith('.v8'))
    .map((name) => join(dir, name))
    .filter((path) => path !== keep)
    .map((path) => ({ path, mtime: statSync(path).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of entries.slice(KEEP_ENTRIES - 1)) unlinkSync(old.path);
}
