/**
 * Process-backend bookkeeping under the team directory: pid records
 * (`teams/<teamDir>/processes/<agent>.json`) and log files (`teams/<teamDir>/logs/<agent>.log`).
 * Deleting the team deletes them too. Records are written atomically (temp file + rename); each is
 * written by one starter, so no lock is needed.
 */
import { open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ProcessRecordSchema, type ProcessRecord } from '../../protocol/process.js';
import { readJsonFile, writeJsonFile, FILE_MODE } from '../json-file.js';
import type { AgentLog } from '../store.js';
import { ensureDir, type FsContext } from './context.js';

/** The agent's process record, or undefined when missing or invalid. */
export async function readProcessRecord(ctx: FsContext, team: string, agent: string): Promise<ProcessRecord | undefined> {
  const read = await readJsonFile(ctx.layout.processRecordPath(team, agent));
  if (read.state === 'missing') return undefined;
  const parsed = ProcessRecordSchema.safeParse(read.value);
  return parsed.success ? parsed.data : undefined;
}

/** Writes (replaces) the agent's process record. */
export async function writeProcessRecord(ctx: FsContext, team: string, agent: string, record: ProcessRecord): Promise<void> {
  const path = ctx.layout.processRecordPath(team, agent);
  await ensureDir(dirname(path));
  await writeJsonFile(path, record);
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
  return { path, fd: handle.fd, close: () => handle.close() };
}
