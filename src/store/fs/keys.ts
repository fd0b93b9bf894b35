/**
 * This machine's identity files of signed teams (src/protocol/identity-files.ts): member key pairs,
 * the pinned lead keys, the obeyed control ids. Files mode 0600 in a 0700 directory, written
 * atomically (temp file + rename). A key file others can read is refused, never used.
 */
import { dirname } from 'node:path';
import type { z } from 'zod';
import { MailroomError } from '../../errors.js';
import { LeadPinSchema, ObeyedIdsSchema, SeenIdsSchema, StoredKeySchema, type LeadPin, type ObeyedIds, type SeenIds, type StoredKey } from '../../protocol/identity-files.js';
import { writeFileAtomic } from './atomic-write.js';
import { readSmallFile } from './small-file.js';
import { formatJson } from './json-file.js';
import { makeDirs } from './make-dirs.js';
import { DIR_MODE } from './modes.js';
import type { FsContext } from './context.js';

/**
 * The largest identity file read (bytes): a key, a pin or the replay memory (at most SEEN_LIMIT ids)
 * is far smaller. A larger file is refused before it is read: read whole and synchronously, it
 * would stop the process for seconds at every send and guard, and past 512 MiB fail without a code.
 */
export const IDENTITY_FILE_MAX_BYTES = 16 * 1024 * 1024;

/** FILE_CORRUPT for an identity file over {@link IDENTITY_FILE_MAX_BYTES}. */
export function identityFileTooLarge(path: string, what: string, size: number): MailroomError {
  return new MailroomError('FILE_CORRUPT', `${path} (${what}) is too large to be one (${size} bytes): move it aside, then run \`mailroom team rekey\` where the lead runs if it was needed.`, { details: { path, bytes: size } });
}

/**
 * Reads one identity file: undefined when missing. @throws KEY_PERMISSIONS (readable by others), FILE_CORRUPT
 *
 * Synchronous calls (docs/decisions.md "Synchronous I/O in critical sections"): these are files of a
 * few hundred bytes in the page cache, and a woken teammate's guard reads the lead pin (then the
 * team key) and its replay memory before every model request (issue 24) — each asynchronous `stat`
 * or `readFile` was one or more round trips through the thread pool, in a chain.
 */
async function readIdentityFile<T>(path: string, schema: z.ZodType<T>, what: string): Promise<T | undefined> {
  // A FIFO or device here would block the event loop's read: refused on the file opened, unread.
  const found = readSmallFile(path, IDENTITY_FILE_MAX_BYTES);
  if (found.kind === 'missing') return undefined;
  if (found.kind === 'special') throw new MailroomError('FILE_CORRUPT', `${path} (${what}) is not a regular file: move it aside, then run \`mailroom team rekey\` where the lead runs if it was needed.`, { details: { path } });
  if (found.kind === 'large') throw identityFileTooLarge(path, what, found.size);
  if ((found.stats.mode & 0o077) !== 0) {
    const mode = (found.stats.mode & 0o777).toString(8).padStart(4, '0');
    throw new MailroomError('KEY_PERMISSIONS', `${path} (${what}) has mode ${mode}: others may read or change it, so mailroom does not use it. Fix: chmod 600 ${path} (and check nobody else copied it).`, { details: { path, mode } });
  }
  const text = found.text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new MailroomError('FILE_CORRUPT', `${path} is not a mailroom ${what}: restore it from a backup of this machine, or remove it and run \`mailroom team rekey\` where the lead runs.`, { details: { path } });
  return parsed.data;
}

async function writeIdentityFile(path: string, value: unknown): Promise<void> {
  await makeDirs(dirname(path), DIR_MODE);
  await writeFileAtomic(path, formatJson(value));
}

/** A member's key pair on this machine. */
export function readMemberKey(ctx: FsContext, team: string, member: string): Promise<StoredKey | undefined> {
  return readIdentityFile(ctx.layout.memberKeyPath(team, member), StoredKeySchema, 'member key');
}
/** Writes (replaces) a member's key pair, mode 0600. */
export function writeMemberKey(ctx: FsContext, key: StoredKey): Promise<void> {
  return writeIdentityFile(ctx.layout.memberKeyPath(key.team, key.name), key);
}
/** The lead keys this machine pinned for `team`. */
export function readLeadPin(ctx: FsContext, team: string): Promise<LeadPin | undefined> {
  return readIdentityFile(ctx.layout.leadPinPath(team), LeadPinSchema, 'lead key pin');
}
/** Writes (replaces) the pin. */
export function writeLeadPin(ctx: FsContext, pin: LeadPin): Promise<void> {
  return writeIdentityFile(ctx.layout.leadPinPath(pin.team), pin);
}
/** The control ids a member's reader obeyed. */
export function readObeyed(ctx: FsContext, team: string, member: string): Promise<ObeyedIds | undefined> {
  return readIdentityFile(ctx.layout.obeyedPath(team, member), ObeyedIdsSchema, 'obeyed-ids file');
}
/** Writes (replaces) them. */
export function writeObeyed(ctx: FsContext, team: string, member: string, obeyed: ObeyedIds): Promise<void> {
  return writeIdentityFile(ctx.layout.obeyedPath(team, member), obeyed);
}
/** The signed plain messages a member's reader consumed. */
export function readSeen(ctx: FsContext, team: string, member: string): Promise<SeenIds | undefined> {
  return readIdentityFile(ctx.layout.seenPath(team, member), SeenIdsSchema, 'seen-ids file');
}
/** Writes (replaces) them. */
export function writeSeen(ctx: FsContext, team: string, member: string, seen: SeenIds): Promise<void> {
  return writeIdentityFile(ctx.layout.seenPath(team, member), seen);
}
