/**
 * Which files are state files (config, inbox, task, mailroom's team settings and path leases, and its process, command and member records)
 * and whether one is readable: parses as JSON and matches its format. A file being rewritten in
 * place by Claude Code 2.1.109 is read again a few times before it counts as corrupt (readJsonFile).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TeamConfigSchema } from '../../protocol/config.js';
import { MEMBER_RECORD_VERSION, MemberRecordSchema } from '../../protocol/member-record.js';
import { PathLeaseDocSchema } from '../../protocol/path-lease.js';
import { ProcessRecordSchema } from '../../protocol/process.js';
import { TeamSettingsSchema } from '../../protocol/settings.js';
import { TaskSchema } from '../../protocol/task.js';
import type { StoredRecordKind } from '../health.js';
import { readJsonFile } from './json-file.js';
import { commandRecordAt } from './commands.js';
import type { FsContext } from './context.js';
import { PATH_LEASES_FILE, SETTINGS_FILE } from './paths.js';

const TASK_FILE = /^([1-9][0-9]*)\.json$/;

/** The kind of state file at `path`, or undefined for any other file. */
export function stateFileKind(ctx: FsContext, path: string): StoredRecordKind | undefined {
  const name = basename(path);
  const parent = dirname(path);
  const { teamsDir, tasksRoot, commandsDir, membersDir } = ctx.layout;
  if (name === 'config.json' && dirname(parent) === teamsDir) return 'config';
  if (name === PATH_LEASES_FILE && dirname(parent) === teamsDir) return 'path-leases';
  if (name === SETTINGS_FILE && dirname(parent) === teamsDir) return 'settings';
  if (name.endsWith('.json') && basename(parent) === 'inboxes' && dirname(dirname(parent)) === teamsDir) return 'inbox';
  if (TASK_FILE.test(name) && dirname(parent) === tasksRoot) return 'task';
  if (name === '.highwatermark' && dirname(parent) === tasksRoot) return 'highwatermark';
  if (name.endsWith('.json') && basename(parent) === 'processes' && dirname(dirname(parent)) === teamsDir) return 'process';
  if (TASK_FILE.test(name) && dirname(parent) === commandsDir) return 'command';
  const mailroomDir = dirname(commandsDir);
  if (name.endsWith('.json') && dirname(parent) === join(mailroomDir, 'leases')) return 'lease';
  if (name.endsWith('.json') && dirname(parent) === join(mailroomDir, 'readers')) return 'reader';
  if (/^[mt]-[0-9a-f]{64}\.json$/.test(name) && dirname(parent) === join(mailroomDir, 'idempotency')) return 'idempotency';
  if (name.endsWith('.json') && dirname(parent) === membersDir) return 'member';
  return undefined;
}

/**
 * Why the state file at `path` is unusable, or undefined when it is fine (or gone).
 * Checks that it is a file, its JSON syntax, then the format of its kind (reference §2, §3, §5);
 * a `.highwatermark` must hold a whole number.
 */
export async function checkStateFile(path: string, kind: StoredRecordKind): Promise<string | undefined> {
  const s = await stat(path).catch(() => undefined);
  if (!s) return undefined;
  if (s.isDirectory()) return 'is a directory, not a file';
  if (!s.isFile()) return 'is not a regular file'; // a FIFO or a device: reading it would block or never end
  if (kind === 'highwatermark') return /^[0-9]+$/.test((await readFile(path, 'utf8')).trim()) ? undefined : 'does not hold a whole number';
  let value: unknown;
  try {
    const read = await readJsonFile(path);
    if (read.state === 'missing') return undefined;
    value = read.value;
  } catch (err) {
    return `is not valid JSON (${err instanceof Error && err.cause instanceof Error ? err.cause.message : 'unreadable'})`;
  }
  switch (kind) {
    case 'config':
      return TeamConfigSchema.safeParse(value).success ? undefined : 'does not match the team config format';
    case 'inbox':
      return Array.isArray(value) ? undefined : 'is not a JSON array';
    case 'task': {
      if (!TaskSchema.safeParse(value).success) return 'does not match the task format';
      const id = TASK_FILE.exec(basename(path))?.[1];
      return (value as { id: unknown }).id === id ? undefined : `holds id ${JSON.stringify((value as { id: unknown }).id)}, not ${id}`;
    }
    case 'process':
      return ProcessRecordSchema.safeParse(value).success ? undefined : 'does not match the process record format';
    case 'command':
      return commandRecordAt(path, value) ? undefined : 'does not match the command record format (or is not named for its own team and pid)';
    case 'lease':
    case 'reader':
    case 'idempotency':
      return isVersionedRecord(value) ? undefined : `does not match the ${kind === 'lease' ? 'lease' : kind === 'reader' ? 'reader claim' : 'idempotency record'} format`;
    case 'path-leases':
      return PathLeaseDocSchema.safeParse(value).success ? undefined : 'does not match the path-lease document format';
    case 'settings':
      return TeamSettingsSchema.safeParse(value).success ? undefined : 'does not match the team settings format';
    case 'member': {
      const v = (value as { v?: unknown } | null)?.v;
      if (typeof v === 'number' && v !== MEMBER_RECORD_VERSION) return undefined; // a newer mailroom's: not ours to judge
      return MemberRecordSchema.safeParse(value).success ? undefined : 'does not match the member record format';
    }
  }
}

/** mailroom's own records under `<root>/mailroom/` are JSON objects with `"v": 1` (their readers check the rest). */
function isVersionedRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { v?: unknown }).v === 1;
}
