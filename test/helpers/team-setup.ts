/**
 * Building teams and inbox histories for store and torture tests through the library (src/).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember, type BackendType } from '../../src/core/members/spawn.js';
import { makeInboxEntry, type InboxEntry } from '../../src/protocol/inbox.js';
import { Layout } from '../../src/store/fs/paths.js';
import { openFsStores } from '../../src/store/open.js';

/** Creates `team` in `root` with the lead and the given teammates (no spawn prompt, so no inbox yet). */
export async function makeTeam(root: string, team: string, members: ReadonlyArray<string | { name: string; backend: BackendType }> = []): Promise<void> {
  await createTeam({ root: openFsStores(root), team });
  for (const m of members) {
    const { name, backend } = typeof m === 'string' ? { name: m, backend: undefined } : m;
    await spawnMember({ root: openFsStores(root), team, name, backend });
  }
}

/** `count` entries from `from`, 1 ms apart from `startMs`, text `"<from> <i> <padding>"`. */
export function historyEntries(count: number, options: { from?: string; read?: boolean; startMs?: number; pad?: number } = {}): InboxEntry[] {
  const from = options.from ?? 'alice';
  const start = options.startMs ?? Date.parse('2026-01-01T00:00:00.000Z');
  const padding = 'x'.repeat(options.pad ?? 200);
  return Array.from({ length: count }, (_, i) => {
    const entry = makeInboxEntry({ from, text: `${from} ${i} ${padding}`, timestamp: new Date(start + i).toISOString(), msgId: randomUUID() });
    entry.read = options.read ?? true;
    return entry;
  });
}

/** Writes an inbox file by hand, as Claude Code would have left it (2-space JSON). */
export async function writeInboxFile(root: string, team: string, agent: string, entries: readonly unknown[]): Promise<string> {
  const path = new Layout(root).inboxPath(team, agent);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, JSON.stringify(entries, null, 2), { mode: 0o600 });
  return path;
}
