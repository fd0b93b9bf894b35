/**
 * Records of running teammate commands: `<root>/mailroom/commands/<team>/<pid>.json`
 * (docs/format.md "Command records"). Each record is written once by the runtime that started the
 * command (atomically: temp file + rename) and removed by it when the command ends, or by a reaper
 * after that runtime died; pids are unique among live processes, so no lock is needed.
 */
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CommandRecordSchema, type CommandRecord } from '../../protocol/command.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { pathPart } from './names.js';
import { ensureDir, type FsContext } from './context.js';

const RECORD_FILE = /^[1-9][0-9]*\.json$/;

/** Writes (replaces) the record of `record.pid`. */
export async function writeCommandRecord(ctx: FsContext, record: CommandRecord): Promise<void> {
  await ensureDir(ctx.layout.commandRecordDir(record.team));
  await writeJsonFile(ctx.layout.commandRecordPath(record.team, record.pid), record);
}

/** Removes the record of the command with this pid (no-op when absent). */
export async function deleteCommandRecord(ctx: FsContext, team: string, pid: number): Promise<void> {
  await rm(ctx.layout.commandRecordPath(team, pid), { force: true });
}

/**
 * Valid records of `team`, or of every team when `team` is undefined, in path order. Files that
 * do not parse, do not match the format, or are not where their own `team` and `pid` put them are
 * skipped (a reaper must only act on what it understands; `mailroom doctor` reports them).
 */
export async function listCommandRecords(ctx: FsContext, team?: string): Promise<CommandRecord[]> {
  const dirs = team !== undefined ? [ctx.layout.commandRecordDir(team)] : (await names(ctx.layout.commandsDir)).map((d) => join(ctx.layout.commandsDir, d));
  const records: CommandRecord[] = [];
  for (const dir of dirs.sort()) {
    for (const name of (await names(dir)).filter((n) => RECORD_FILE.test(n)).sort()) {
      const record = await readRecord(join(dir, name));
      if (record && (team === undefined || record.team === team)) records.push(record);
    }
  }
  return records;
}

async function names(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

async function readRecord(path: string): Promise<CommandRecord | undefined> {
  const read = await readJsonFile(path, { attempts: 1 }).catch(() => undefined);
  if (read?.state !== 'ok') return undefined;
  return commandRecordAt(path, read.value);
}

/**
 * `value` as the command record stored at `path`, or undefined when it does not match the format
 * (src/protocol/command.ts) or names another file: `<team>/<pid>.json` must be its own team and pid,
 * or removing "its" record would remove another file and leave this one.
 */
export function commandRecordAt(path: string, value: unknown): CommandRecord | undefined {
  const parsed = CommandRecordSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const ownPlace = basename(path) === `${parsed.data.pid}.json` && basename(dirname(path)) === pathPart(parsed.data.team);
  return ownPlace ? parsed.data : undefined;
}
