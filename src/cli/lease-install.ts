/**
 * Installing the lease guards (docs/leases.md "Guards"): the git pre-commit hook that runs
 * `mailroom lease guard`, and the Claude Code PreToolUse hook that runs `mailroom lease hook` in a
 * project's `.claude/settings.json`. Both are idempotent (installing twice changes nothing) and
 * never overwrite what they cannot account for: a pre-commit hook mailroom did not write, or a
 * settings file that does not parse as a JSON object, is refused with the fix, nothing written.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MailroomError } from '../errors.js';

/** The marker line of a pre-commit hook mailroom wrote. */
export const GUARD_MARKER = '# mailroom lease guard (installed by `mailroom lease guard --install`)';

/** What an install did: `installed` (new), `updated` (its own earlier version replaced), `unchanged`. */
export type InstallOutcome = 'installed' | 'updated' | 'unchanged';

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function replaceFile(path: string, text: string, mode?: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.mailroom-${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: mode ?? 0o644 });
  if (mode !== undefined) await chmod(tmp, mode);
  await rename(tmp, path);
}

/**
 * Writes `hookPath` (a git pre-commit hook) running `command`.
 * @throws INVALID_ARGUMENT when a pre-commit hook mailroom did not write is there (it is left as is; the message says which line to add)
 */
export async function installGitGuard(hookPath: string, command: string): Promise<InstallOutcome> {
  const text = `#!/bin/sh\n${GUARD_MARKER}\nexec ${command}\n`;
  const old = await readIfThere(hookPath);
  if (old === text) return 'unchanged';
  if (old !== undefined && !old.includes(GUARD_MARKER)) {
    throw new MailroomError('INVALID_ARGUMENT', `${hookPath} is a pre-commit hook mailroom did not write; it is left as it is. Add this line to it yourself: ${command}`, { details: { path: hookPath } });
  }
  await replaceFile(hookPath, text, 0o755);
  return old === undefined ? 'installed' : 'updated';
}

/**
 * Claude Code's tools that edit a file, each with the `tool_input` field naming it: Edit, Write
 * and MultiEdit name it `file_path`, NotebookEdit (a Jupyter notebook's cells) `notebook_path`.
 */
export const EDIT_TOOLS: Readonly<Record<string, 'file_path' | 'notebook_path'>> = { Edit: 'file_path', Write: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };

/** The PreToolUse matcher of the Claude Code hook: the tools that edit files ({@link EDIT_TOOLS}). */
export const HOOK_MATCHER = Object.keys(EDIT_TOOLS).join('|');

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isLeaseHook = (h: unknown) => isObject(h) && typeof h.command === 'string' && / lease hook( |$)/.test(h.command);

/**
 * Adds (or updates) the PreToolUse hook running `command` in the Claude Code settings file
 * `settingsPath`, keeping every other setting. An earlier mailroom lease hook is replaced in place.
 * @throws FILE_CORRUPT when the file does not parse as a JSON object, or its `hooks.PreToolUse` is not a list (nothing written)
 */
export async function installClaudeHook(settingsPath: string, command: string): Promise<InstallOutcome> {
  const old = await readIfThere(settingsPath);
  let settings: Json = {};
  if (old !== undefined && old.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(old);
    } catch (err) {
      throw corrupt(settingsPath, `does not parse as JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    if (!isObject(parsed)) throw corrupt(settingsPath, 'is not a JSON object');
    settings = parsed;
  }
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) throw corrupt(settingsPath, 'has a "hooks" that is not an object');
  const pre = hooks.PreToolUse ?? [];
  if (!Array.isArray(pre)) throw corrupt(settingsPath, 'has a "hooks.PreToolUse" that is not a list');
  const entry = { type: 'command', command };
  const at = pre.findIndex((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some(isLeaseHook));
  let next: unknown[];
  if (at < 0) next = [...pre, { matcher: HOOK_MATCHER, hooks: [entry] }];
  else {
    const group = pre[at] as Json & { hooks: unknown[] };
    const same = group.matcher === HOOK_MATCHER && group.hooks.some((h) => isLeaseHook(h) && (h as Json).command === command);
    if (same) return 'unchanged';
    next = pre.map((g, i) => (i === at ? { ...group, matcher: HOOK_MATCHER, hooks: group.hooks.map((h) => (isLeaseHook(h) ? { ...(h as Json), ...entry } : h)) } : g));
  }
  await replaceFile(settingsPath, `${JSON.stringify({ ...settings, hooks: { ...hooks, PreToolUse: next } }, null, 2)}\n`);
  return old === undefined ? 'installed' : 'updated';
}

function corrupt(path: string, what: string): MailroomError {
  return new MailroomError('FILE_CORRUPT', `${path} ${what}: it is left as it is. Fix it, then install again — or add the PreToolUse hook by hand (docs/leases.md).`, { details: { path } });
}
