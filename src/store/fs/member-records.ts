/**
 * Member records on disk: `<root>/mailroom/members/<team>/<agent>.json` (both names through the
 * case-keeping sanitiser), outside the directories Claude Code reads, globs and deletes. Written
 * by {@link TeamStore.addMember} and removed by {@link TeamStore.removeMember}, inside their
 * config-lock step (roster.ts), so one member's record has one writer at a time; atomic writes
 * (temp file + rename). A record that does not parse is never overwritten.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MEMBER_RECORD_VERSION, MemberRecordSchema, type MemberRecord } from '../../protocol/member-record.js';
import { corruptFile, readJsonFile, writeJsonFile } from './json-file.js';
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

/**
 * Writes (replaces) a record. Best effort, like the journal: the member is registered either way,
 * and a failure is a process warning (code `MAILROOM_MEMBER_RECORD`).
 */
export async function writeMemberRecord(ctx: FsContext, record: MemberRecord): Promise<void> {
  try {
    await ensureDir(ctx.layout.memberRecordDir(record.team));
    await writeJsonFile(ctx.layout.memberRecordPath(record.team, record.name), record);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    process.emitWarning(`mailroom could not write the member record of ${record.name} in team "${record.team}": ${reason}`, { code: 'MAILROOM_MEMBER_RECORD' });
  }
}

/** Removes a record (no-op when absent or unremovable: a leftover record names an earlier member, which readers recognise). */
export async function deleteMemberRecord(ctx: FsContext, team: string, name: string): Promise<void> {
  await rm(ctx.layout.memberRecordPath(team, name), { force: true }).catch(() => undefined);
}

/** Every valid record of the team, by member name. */
export async function readMemberRecords(ctx: FsContext, team: string): Promise<MemberRecord[]> {
  const dir = ctx.layout.memberRecordDir(team);
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json'));
  const out: MemberRecord[] = [];
  for (const f of files) {
    const record = await readAt(join(dir, f)).catch(() => undefined);
    if (record && record.team === team) out.push(record);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
