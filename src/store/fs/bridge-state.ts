/**
 * The bridge's saved state on this machine (`<root>/mailroom/bridge/<team>.json`, docs/bridge.md):
 * opaque text written atomically (temp file + rename), so a bridge killed mid-write leaves the
 * previous state whole.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { ensureDir, type FsContext } from './context.js';

/** The state text, or undefined when there is none. */
export async function readBridgeState(ctx: FsContext, team: string): Promise<string | undefined> {
  try {
    return await readFile(ctx.layout.bridgeStatePath(team), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Replaces the state text atomically. @throws FILE_ACCESS (naming the file; the old state is then unchanged) */
export async function writeBridgeState(ctx: FsContext, team: string, text: string): Promise<void> {
  const path = ctx.layout.bridgeStatePath(team);
  await ensureDir(dirname(path));
  await writeFileAtomic(path, text);
}
