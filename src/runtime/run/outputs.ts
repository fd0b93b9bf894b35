/**
 * The files a `mailroom run` team file declares as task outputs (`outputs:`, relative to the work
 * directory), and which of them this run wrote. Their modification times are taken before the team
 * is set up and compared at the end: a file that is new or changed was written by this run; one that
 * is unchanged is from before (an earlier run in the same work directory) even if its task never ran.
 */
import { isAbsolute, join } from 'node:path';
import type { HostStore } from '../../store/host-store.js';
import type { LoadedTeamFile } from './team-file.js';

/** Declared outputs (absolute paths, first mention order) with their mtime before the run (ms; undefined: missing). */
export type OutputSnapshot = ReadonlyMap<string, number | undefined>;

/** Snapshots the outputs declared by the tasks of `loaded`, resolved against `workdir`. */
export async function snapshotOutputs(host: HostStore, loaded: LoadedTeamFile, workdir: string): Promise<OutputSnapshot> {
  const paths = [...new Set(loaded.file.tasks.flatMap((t) => t.outputs).map((o) => (isAbsolute(o) ? o : join(workdir, o))))];
  return new Map(await Promise.all(paths.map(async (p) => [p, await host.userFileMtimeMs(p)] as const)));
}

/** Which declared outputs this run wrote (`written`) and which exist unchanged from before (`older`); missing ones are in neither. */
export async function sortOutputs(host: HostStore, before: OutputSnapshot): Promise<{ outputs: string[]; olderOutputs: string[] }> {
  const outputs: string[] = [];
  const olderOutputs: string[] = [];
  for (const [path, was] of before) {
    const now = await host.userFileMtimeMs(path);
    if (now === undefined) continue;
    (now === was ? olderOutputs : outputs).push(path);
  }
  return { outputs, olderOutputs };
}
