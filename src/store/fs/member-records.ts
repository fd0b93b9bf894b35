/**
 * Member records on disk: `<root>/mailroom/members/<team>/<agent>.json` (both names through the
 * case-keeping sanitiser), outside the directories Claude Code reads, globs and deletes. Written
 * atomically (temp file + rename); one member's record is written by the one process registering
 * it, so no lock is needed. A record that does not parse is never overwritten.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MEMBER_RECORD_VERSION, MemberRecordSchema, type MemberRecord } from '../../protocol/member-record.js';
import { corruptFile, readJsonFile, writeJsonFile } from '../json-file.js';
import { ensureDir, type FsContext } from './context.js';

/** The record of `name`; undefined when missing or of another version. @throws FILE_CORRUPT */
export async function readMemberRecord(ctx: FsContext, team: string, name: string): Promise<MemberRecord | undefined> {
  return readAt(ctx.layout.memberRecordPath(team, name));
}

async function readAt(path: string): Promise<MemberRecord | undefined> {
  const read = await readJsonFile(path);
  if (read.state === 'missing') return undefined;
  const v = (read.value as { v?: unknown } | null)?.v;
  if (typeof v === 'number' && v !== MEMBER_RECORD_VERSION) return undefined;
  const parsed = MemberRecordSchema.safeParse(read.value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'does not match the member record format');
  return read.value as MemberRecord;
}

/** Writes (replaces) a record; refuses to replace one that does not parse. @throws FILE_CORRUPT */
export async function writeMemberRecord(ctx: FsContext, record: MemberRecord): Promise<void> {
  const path = ctx.layout.memberRecordPath(record.team, record.name);
  await readAt(path);
  await ensureDir(ctx.layout.memberRecordDir(record.team));
  await writeJsonFile(path, record);
}

/** Removes a record (no-op when absent). */
export async function deleteMemberRecord(ctx: FsContext, team: string, name: string): Promise<void> {
  await rm(ctx.layout.memberRecordPath(team, name), { force: true });
}

/** Every valid record of the team, by file name. */
export async function listMemberRecords(ctx: FsContext, team: string): Promise<MemberRecord[]> {
  const dir = ctx.layout.memberRecordDir(team);
  const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.json')).sort();
  const out: MemberRecord[] = [];
  for (const f of files) {
    const record = await readAt(join(dir, f)).catch(() => undefined);
    if (record) out.push(record);
  }
  return out;
}
