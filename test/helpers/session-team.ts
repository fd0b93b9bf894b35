/**
 * Turns a copy of a Claude Code 2.1.109 snapshot (team `compat`) into a team named like current
 * Claude Code's implicit session teams (`session-<8 chars>`, reference §0): renamed directories,
 * config name, leadAgentId and agentIds.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Renames team `compat` under `root` to `name`. */
export async function renameCompatTeam(root: string, name: string): Promise<void> {
  await rename(join(root, 'teams', 'compat'), join(root, 'teams', name));
  await rename(join(root, 'tasks', 'compat'), join(root, 'tasks', name));
  const path = join(root, 'teams', name, 'config.json');
  const text = (await readFile(path, 'utf8')).replace(/"compat"/g, JSON.stringify(name)).replace(/@compat"/g, `@${name}"`);
  await writeFile(path, text);
}
