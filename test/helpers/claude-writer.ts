/**
 * Writes team files the way Claude Code does, from outside mailroom: for tests that need another
 * writer (a teammate appending an idle notice, a 2.1.332 reader deleting delivered entries, the
 * lead removing a member). Plain fs writes, no locks — the way a 2.1.39 process behaves.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Paths of a team named `team` (a name both of Claude Code's sanitisers keep) under `root`. */
export function teamPaths(root: string, team: string) {
  return {
    config: join(root, 'teams', team, 'config.json'),
    inbox: (agent: string) => join(root, 'teams', team, 'inboxes', `${agent}.json`),
    task: (id: string) => join(root, 'tasks', team, `${id}.json`),
    journal: join(root, 'mailroom', 'journal', `${team}.ndjson`),
  };
}

/** Replaces a JSON file atomically (temp file + rename, as 2.1.332 does). */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await writeFile(tmp, JSON.stringify(value, null, 2));
  await rename(tmp, path);
}

/** Reads a JSON file. */
export async function readJsonFile<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

/** Appends raw entries to an inbox (creating it), like a Claude Code writer. */
export async function appendEntries(path: string, ...entries: Array<Record<string, unknown>>): Promise<void> {
  let current: unknown[] = [];
  try {
    current = await readJsonFile<unknown[]>(path);
  } catch {
    current = [];
  }
  await writeJsonAtomic(path, [...current, ...entries]);
}

/** An `idle_notification` entry from `from`, as a teammate sends it to the lead. */
export function idleEntry(from: string, timestamp: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { from, text: JSON.stringify({ type: 'idle_notification', from, timestamp, idleReason: 'available', ...extra }), timestamp, color: 'blue', read: false };
}

/** A plain text entry. */
export function textEntry(from: string, text: string, timestamp: string, read = false): Record<string, unknown> {
  return { from, text, timestamp, read };
}

/** Applies `change` to a JSON file in place (read, change, atomic write). */
export async function patchJson<T>(path: string, change: (value: T) => T | void): Promise<void> {
  const value = await readJsonFile<T>(path);
  await writeJsonAtomic(path, change(value) ?? value);
}
