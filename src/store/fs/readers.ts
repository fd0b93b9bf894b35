/**
 * Reader claims on the filesystem: `<root>/mailroom/readers/<team>/<agent>.json`, one per member,
 * written under its own lock (`<agent>.json.lock`). The record holds the holder and its token; the
 * file's **mtime is the last beat** (set explicitly to the operation's instant), so that a beat is
 * one `utimes`, not a locked rewrite: 50 idle teammates beating every 5 s cost ten syscalls a second.
 *
 * A beat checks the token and then touches the file without the lock. If the claim changed hands in
 * between, the touch lands on the new holder's file — it only makes a live claim look live — and
 * the old holder learns it lost the claim at its next beat. A beat that changes the recorded state
 * (`working`/`idle`) rewrites the record under the lock.
 *
 * A process remembers the inode of each claim file it wrote or verified: every write replaces the
 * file (rename), so while the inode is the same the token is too, and a beat is one `stat` and one
 * `utimes` (synchronous: two system calls, no thread-pool round trips). A new inode means someone
 * rewrote the claim, and the beat reads it again.
 */
import { randomUUID } from 'node:crypto';
import { statSync, utimesSync } from 'node:fs';
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isErrno } from '../../errors.js';
import { DEFAULT_READER_TTL_MS, claimLost, mayTakeOver, readerTaken } from '../../domain/reader-claims.js';
import { requireMember } from '../../domain/roster.js';
import { corruptFile, readJsonFile, writeJsonFile } from './json-file.js';
import type { HeldLock } from './lock.js';
import type { ClaimReaderOptions, OpContext, ReaderClaim, ReaderHolder, Transition } from '../team-store.js';
import { ensureDir, locked, nowOf, type FsContext } from './context.js';
import { releaseReaderLeases } from './leases.js';
import { readConfig } from './teams.js';

const ClaimSchema = z.looseObject({
  v: z.literal(1),
  member: z.string(),
  token: z.string(),
  kind: z.enum(['agent', 'mcp', 'in-process']),
  host: z.string(),
  pid: z.number().int(),
  startedAt: z.number(),
  state: z.enum(['working', 'idle']),
  ttlMs: z.number().positive(),
});

type StoredClaim = z.infer<typeof ClaimSchema>;

/** The member's claim with its last beat (the file's mtime), or undefined. @throws FILE_CORRUPT */
async function readClaim(ctx: FsContext, team: string, member: string): Promise<ReaderClaim | undefined> {
  const path = ctx.layout.readerClaimPath(team, member);
  const read = await readJsonFile(path);
  if (read.state === 'missing') return undefined;
  const parsed = ClaimSchema.safeParse(read.value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'does not match the reader claim format');
  const s = await stat(path).catch(() => undefined);
  if (!s) return undefined;
  return claimOf(parsed.data, s.mtimeMs);
}

function claimOf(c: StoredClaim, lastBeatAt: number): ReaderClaim {
  return { member: c.member, token: c.token, kind: c.kind, host: c.host, pid: c.pid, startedAt: c.startedAt, state: c.state, ttlMs: c.ttlMs, lastBeatAt };
}

/** Claim files this process wrote or verified: path → the inode then, and the claim it held. */
const known = new Map<string, { ino: number; claim: ReaderClaim }>();

function remember(path: string, claim: ReaderClaim): void {
  try {
    known.set(path, { ino: statSync(path).ino, claim });
  } catch {
    known.delete(path);
  }
}

async function writeClaim(ctx: FsContext, team: string, claim: StoredClaim, at: number, lock: HeldLock): Promise<void> {
  const path = ctx.layout.readerClaimPath(team, claim.member);
  await writeJsonFile(path, claim, lock);
  await touch(path, at);
  remember(path, claimOf(claim, at));
}

async function touch(path: string, at: number): Promise<void> {
  const t = new Date(at);
  await utimes(path, t, t);
}

/**
 * Takes the member's claim unless a live one exists (or `evict` names exactly its holder); the
 * leases of the holder it replaces are released at once. @throws TEAMMATE_RUNNING, MEMBER_NOT_FOUND
 */
export async function claimReader(ctx: FsContext, team: string, member: string, holder: ReaderHolder, options: ClaimReaderOptions = {}): Promise<Transition<ReaderClaim>> {
  requireMember(await readConfig(ctx, team), member);
  const now = nowOf(options);
  const path = ctx.layout.readerClaimPath(team, member);
  await ensureDir(ctx.layout.readerDir(team));
  const { claim, replaced } = await locked(ctx, path, async (lock) => {
    const current = await readClaim(ctx, team, member);
    if (current && !mayTakeOver(current, now, options.evict)) throw readerTaken(team, member, current);
    const stored: StoredClaim = { v: 1, member, token: randomUUID(), kind: holder.kind, host: holder.host, pid: holder.pid, startedAt: holder.startedAt, state: 'idle', ttlMs: options.ttlMs ?? DEFAULT_READER_TTL_MS };
    await writeClaim(ctx, team, stored, now, lock);
    return { claim: claimOf(stored, now), replaced: current?.token };
  });
  const events = replaced === undefined ? [] : (await releaseReaderLeases(ctx, team, member, replaced, options)).events;
  return { value: claim, events };
}

/** Renews the claim (and records `state`). @throws TEAMMATE_RUNNING when `token` no longer holds it */
export async function beat(ctx: FsContext, team: string, member: string, token: string, state: ReaderClaim['state'], op?: OpContext): Promise<Transition<ReaderClaim>> {
  const now = nowOf(op);
  const path = ctx.layout.readerClaimPath(team, member);
  const cached = known.get(path);
  if (cached && cached.claim.token === token && cached.claim.state === state && sameInode(path, cached.ino)) {
    utimesSync(path, now / 1000, now / 1000);
    return { value: { ...cached.claim, lastBeatAt: now }, events: [] };
  }
  const current = await readClaim(ctx, team, member);
  if (!current || current.token !== token) throw claimLost(team, member, current);
  remember(path, current);
  if (current.state === state) {
    await touch(path, now).catch((err: unknown) => {
      if (isErrno(err, 'ENOENT')) throw claimLost(team, member, undefined);
      throw err;
    });
    return { value: { ...current, lastBeatAt: now }, events: [] };
  }
  const claim = await locked(ctx, path, async (lock) => {
    const again = await readClaim(ctx, team, member);
    if (!again || again.token !== token) throw claimLost(team, member, again);
    const { lastBeatAt: _beat, ...rest } = again;
    await writeClaim(ctx, team, { v: 1, ...rest, state }, now, lock);
    return { ...again, state, lastBeatAt: now };
  });
  return { value: claim, events: [] };
}

/** Gives the claim up (no-op when `token` does not hold it); its leases are released. */
export async function releaseReader(ctx: FsContext, team: string, member: string, token: string, op?: OpContext): Promise<Transition<void>> {
  const path = ctx.layout.readerClaimPath(team, member);
  const current = await readClaim(ctx, team, member).catch(() => undefined);
  if (!current || current.token !== token) return { value: undefined, events: [] };
  const removed = await locked(ctx, path, async (lock) => {
    const again = await readClaim(ctx, team, member).catch(() => undefined);
    if (!again || again.token !== token) return false;
    await lock.assertHeld(`releasing ${path}`);
    await rm(path, { force: true });
    return true;
  }).catch((err: unknown) => {
    if (isErrno(err, 'ENOENT') || (err as { code?: string }).code === 'INTERNAL') return false; // the team's directories are gone
    throw err;
  });
  if (!removed) return { value: undefined, events: [] };
  const { events } = await releaseReaderLeases(ctx, team, member, token, op).catch(() => ({ events: [] }));
  return { value: undefined, events };
}

/** Every claim of the team (dead ones included), tokens blanked. */
export async function readClaims(ctx: FsContext, team: string): Promise<ReaderClaim[]> {
  const dir = ctx.layout.readerDir(team);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return [];
    throw err;
  }
  const claims: ReaderClaim[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const read = await readJsonFile(join(dir, name), { attempts: 1 }).catch(() => undefined);
    const parsed = read?.state === 'ok' ? ClaimSchema.safeParse(read.value) : undefined;
    const s = await stat(join(dir, name)).catch(() => undefined);
    if (parsed?.success && s) claims.push({ ...claimOf(parsed.data, s.mtimeMs), token: '' });
  }
  return claims;
}

function sameInode(path: string, ino: number): boolean {
  try {
    return statSync(path).ino === ino;
  } catch {
    return false;
  }
}
