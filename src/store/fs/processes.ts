/**
 * Agent-process bookkeeping under the team directory: pid records
 * (`teams/<teamDir>/processes/<agent>.json`) and log files (`teams/<teamDir>/logs/<agent>.log`).
 * Deleting the team deletes them too. Records are written atomically (temp file + rename); a claim
 * ({@link claimProcessRecord}) checks and writes under the record's lock (`<agent>.json.lock`), so
 * two runtimes starting at once for one member cannot both win.
 */
import { open, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isErrno } from '../../errors.js';
import { ProcessRecordSchema, type ProcessRecord } from '../../protocol/process.js';
import { corruptFile, formatJson, readJsonFile, writeJsonFile, FILE_MODE } from './json-file.js';
import { withLock } from './lock.js';
import { lockDirFor } from './paths.js';
import { judgeProcess } from '../../domain/processes.js';
import type { AgentLog } from '../host-store.js';
import { probeProcess } from './proc.js';
import { ensureDir, type FsContext } from './context.js';
import { mergeObject } from './recover-object.js';

/**
 * The agent's process record, or undefined when missing.
 * @throws FILE_CORRUPT when it does not parse or does not match the format: a record that cannot
 * be read names no process that can be checked, so it is never taken for absent and overwritten.
 */
export async function readProcessRecord(ctx: FsContext, team: string, agent: string): Promise<ProcessRecord | undefined> {
  const path = ctx.layout.processRecordPath(team, agent);
  const read = await readJsonFile(path);
  if (read.state === 'missing') return undefined;
  const parsed = ProcessRecordSchema.safeParse(read.value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'does not match the process record format');
  return parsed.data;
}

/** Writes (replaces) the agent's process record. */
export async function writeProcessRecord(ctx: FsContext, team: string, agent: string, record: ProcessRecord): Promise<void> {
  const path = ctx.layout.processRecordPath(team, agent);
  await ensureDir(dirname(path));
  await writeJsonFile(path, record);
}

/**
 * Writes `record` unless another live process holds the agent's record. Under the record's lock:
 * reads the current record; when it names another pid that may still run on this machine (its
 * start time matches `/proc`, or cannot be checked), returns it and writes nothing. Otherwise
 * writes — for the same process (same pid, and same start time where both have one), the current
 * record's fields are kept and missing ones added — and returns undefined. A record with this pid
 * but another start time belongs to a process that died (the pid is ours now): it is replaced.
 * @throws FILE_CORRUPT (current record unparseable), LOCK_TIMEOUT
 */
export async function claimProcessRecord(ctx: FsContext, team: string, agent: string, record: ProcessRecord): Promise<ProcessRecord | undefined> {
  const isStale = async (current: ProcessRecord) => {
    const verdict = judgeProcess(current, await probeProcess(current.pid));
    return verdict === 'dead' || verdict === 'reused';
  };
  const path = ctx.layout.processRecordPath(team, agent);
  await ensureDir(dirname(path));
  return withLock(path, lockDirFor(path), ctx.lock, async (lock) => {
    const current = await readProcessRecord(ctx, team, agent);
    const same = current?.pid === record.pid && (current.startTime === undefined || record.startTime === undefined || current.startTime === record.startTime);
    if (current && current.pid !== record.pid && !(await isStale(current))) return current;
    const recovery = { baseText: current && formatJson(current), merge: mergeObject };
    await writeJsonFile(path, same ? { ...record, ...current } : record, lock, { recovery });
    return undefined;
  });
}

/** Removes the agent's process record (no-op when absent). */
export async function deleteProcessRecord(ctx: FsContext, team: string, agent: string): Promise<void> {
  await rm(ctx.layout.processRecordPath(team, agent), { force: true });
}

/** Opens the agent's log file for appending (created with mode 0600). The caller must `close()` it. */
export async function openAgentLog(ctx: FsContext, team: string, agent: string): Promise<AgentLog> {
  const path = ctx.layout.agentLogPath(team, agent);
  await ensureDir(dirname(path));
  const handle = await open(path, 'a', FILE_MODE);
  const { size } = await handle.stat();
  return { location: path, fd: handle.fd, size, close: () => handle.close() };
}

/** The agent's log from byte `from` to its end (at most the last `maxBytes`); `""` when missing. */
export async function readAgentLog(ctx: FsContext, team: string, agent: string, options: { from?: number; maxBytes?: number } = {}): Promise<string> {
  const handle = await open(ctx.layout.agentLogPath(team, agent), 'r').catch((err: unknown) => {
    if (isErrno(err, 'ENOENT')) return undefined;
    throw err;
  });
  if (!handle) return '';
  try {
    const { size } = await handle.stat();
    const start = Math.max(options.from ?? 0, size - (options.maxBytes ?? 64 * 1024), 0);
    const buffer = Buffer.alloc(Math.max(size - start, 0));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Every valid pid record of the team (invalid files are skipped; `mailroom doctor` reports them). */
export async function listProcessRecords(ctx: FsContext, team: string): Promise<ProcessRecord[]> {
  const dir = ctx.layout.processRecordDir(team);
  const names = await readdir(dir).catch(() => [] as string[]);
  const records: ProcessRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const read = await readJsonFile(join(dir, name), { attempts: 1 }).catch(() => undefined);
    const parsed = read?.state === 'ok' ? ProcessRecordSchema.safeParse(read.value) : undefined;
    if (parsed?.success) records.push(parsed.data);
  }
  return records;
}
