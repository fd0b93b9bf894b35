/**
 * Helpers for tests that look at a store root on disk: the fixture and reference-snapshot paths,
 * copying them into writable temp dirs, running the CLI against a root, reading files back and
 * comparing key order.
 */
import { chmod, readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, type CliRun } from './cli.js';
import { afterAll, beforeAll } from 'vitest';
import { copyToTempDir, makeTempDir, type TempDir } from './temp-dir.js';

/** `fixtures/` of this repository. */
export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/**
 * The five snapshots written by the real Claude Code 2.1.109, kept verbatim in
 * fixtures/claude-code-2.1.109 (a copy of ../shared/reference/claude-code-2.1.109); copy before use.
 */
export const REFERENCE_2_1_109 = join(FIXTURES, 'claude-code-2.1.109');

/** Names of the 2.1.109 snapshot folders, in the order they were taken. */
export const SNAPSHOTS = ['1-tasks-with-dependency', '2-teammate-spawned', '3-teammate-idle', '4-shutdown-approved', '5-member-removed'] as const;

/**
 * The five snapshots written by the real Claude Code 2.1.332 (interactive lead, implicit team
 * `session-19f15a79`; snapshot 5 a second session `session-0e1bac49` caught mid-cleanup), kept
 * verbatim in fixtures/claude-code-2.1.332 (a copy of ../shared/reference/claude-code-2.1.332,
 * temp dirs written as `<tmp>`); copy before use.
 */
export const REFERENCE_2_1_332 = join(FIXTURES, 'claude-code-2.1.332');

/** Names of the 2.1.332 snapshot folders, in the order they were taken. */
export const SNAPSHOTS_2_1_332 = ['1-tasks-with-dependency', '2-teammate-spawned', '3-teammate-idle', '4-shutdown-approved', '5-cleanup-tombstone'] as const;

/** The implicit team of the 2.1.332 session in snapshots 1–4. */
export const SESSION_TEAM_2_1_332 = 'session-19f15a79';

/** Copies `source` into a fresh temp dir and makes everything in it writable by the owner. */
export async function copyTree(source: string): Promise<TempDir> {
  const dir = await copyToTempDir(source, 'mailroom-fixture-');
  await chmod(dir.path, 0o700);
  for (const file of await listFiles(dir.path, { dirs: true })) {
    const s = await stat(join(dir.path, file));
    await chmod(join(dir.path, file), s.isDirectory() ? 0o700 : 0o600);
  }
  return dir;
}

/** Every path under `root` (relative, sorted); directories too when `dirs` is set. */
export async function listFiles(root: string, options: { dirs?: boolean } = {}): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => options.dirs || !e.isDirectory())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/** Map of relative path → file bytes, for "nothing changed" checks. */
export async function snapshotBytes(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const file of await listFiles(root)) out.set(file, await readFile(join(root, file)));
  return out;
}

/** Environment for CLI runs: the test runner's, minus anything that would pick a root or team. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const key of ['MAILROOM_ROOT', 'MAILROOM_TEAM', 'CLAUDE_CONFIG_DIR']) if (!(key in extra)) delete env[key];
  return env;
}

/** Runs `mailroom --root <root> <args>` with a clean environment. */
export function mailroom(root: string, ...args: string[]): Promise<CliRun> {
  return runCli(['--root', root, ...args], cleanEnv());
}

/** Like {@link mailroom} but fails the test (throws) unless the command exits 0. */
export async function mailroomOk(root: string, ...args: string[]): Promise<CliRun> {
  const run = await mailroom(root, ...args);
  if (run.code !== 0) throw new Error(`mailroom ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run;
}

/**
 * A store root in a temp dir shared by a test file: made before all its tests by running each of
 * `setup` through the CLI (each must exit 0), removed after them. Returns the root's path (call
 * it inside a test or a hook).
 */
export function cliRootForFile(...setup: string[][]): () => string {
  let dir: TempDir | undefined;
  beforeAll(async () => {
    dir = await makeTempDir();
    for (const args of setup) await mailroomOk(dir.path, ...args);
  });
  afterAll(() => dir?.cleanup());
  return () => {
    if (!dir) throw new Error('cliRootForFile: the root is made in beforeAll; call it inside a test or a later hook');
    return dir.path;
  };
}

/** Parses the JSON file at `path`. */
export async function readJson<T = unknown>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

/**
 * Every key path of a JSON value in document order, e.g. `["name", "members", "members.0.agentId"]`.
 * Two values with equal key paths have the same keys in the same order at every depth.
 */
export function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${prefix}${i}.`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((k) => [`${prefix}${k}`, ...keyPaths((value as Record<string, unknown>)[k], `${prefix}${k}.`)]);
}

/**
 * A task file's text with mailroom's own `fencingToken` (the claim's fencing token, docs/format.md
 * §8) taken out, after checking it is the last key: the rest must then be byte for byte what
 * Claude Code writes, which keeps the extra key on its shallow-merge updates.
 */
export function withoutFencingToken(text: string): string {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const keys = Object.keys(parsed);
  if (keys.at(-1) !== 'fencingToken') throw new Error(`expected fencingToken as the last key of the task file, got ${keys.join(', ')}`);
  delete parsed.fencingToken;
  return JSON.stringify(parsed, null, 2) + (text.endsWith('\n') ? '\n' : '');
}
