/**
 * Reader claims on the filesystem: `<root>/mailroom/readers/<team>/<agent>.json`, one per member,
 * written under its own lock (`<agent>.json.lock`). The record holds the holder and its token; the
 * file's **mtime is the last beat**, stamped by the filesystem's own clock (issue 21 item 3: a write
 * or an `ftruncate` to the file's own length, never a `utimes` with the caller's time), so that a
 * beat is a few system calls, not a locked rewrite, and every judgement of liveness compares
 * filesystem times: the store's clock ({@link readClock}) is the mtime of a file touched the same way.
 *
 * A beat checks the token and then touches the file without the lock. If the claim changed hands in
 * between, the touch lands on the new holder's file — it only makes a live claim look live — and
 * the old holder learns it lost the claim at its next beat. A beat that changes the recorded state
 * (`working`/`idle`) rewrites the record under the lock.
 *
 * A process remembers the inode of each claim file it wrote or verified: every write replaces the
 * file (rename), so while the inode is the same the token is too, and a beat is `open`, `fstat`,
 * `ftruncate` to the same length (the content is untouched), `fstat`, `close` (synchronous, no
 * thread-pool round trips). A new inode means someone rewrote the claim, and the beat reads it again.
 */
import { randomUUID } from '../../protocol/random.js';
import { closeSync, fstatSync, ftruncateSync, openSync, readFileSync, statSync, type BigIntStats, type Stats } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { isErrno } from '../../errors.js';
import { DEFAULT_READER_TTL_MS, claimLost, mayTakeOver, readerTaken } from '../../domain/reader-claims.js';
import { requireMember } from '../../domain/roster.js';
import { corruptFile, readJsonFile, writeJsonFile } from './json-file.js';
import type { HeldLock } from './lock.js';
import type { ClaimReaderOptions, OpContext, ReaderClaim, ReaderHolder, Transition } from '../team-store.js';
import { ensureDir, locked, type FsContext } from './context.js';
import { releaseReaderLeases } from './leases.js';
import { readConfig } from './teams.js';

const ClaimSchema = lazySchema(() => z.looseObject({
  v: z.literal(1),
  member: z.string(),
  token: z.string(),
  kind: z.enum(['agent', 'mcp', 'in-process']),
  host: z.string(),
  pid: z.number().int(),
  startedAt: z.number(),
  state: z.enum(['working', 'idle']),
  ttlMs: z.number().positive(),
}));

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
const known = new Map<string, { ino: number; ctimeNs: bigint; claim: ReaderClaim }>();

function remember(path: string, stamped: Stamp, claim: ReaderClaim): void {
  known.set(path, { ino: stamped.ino, ctimeNs: stamped.ctimeNs, claim });
}

/** Writes the claim (a rename: the filesystem stamps its mtime) and returns it with that mtime as its beat. */
async function writeClaim(ctx: FsContext, team: string, claim: StoredClaim, lock: HeldLock): Promise<ReaderClaim> {
  const path = ctx.layout.readerClaimPath(team, claim.member);
  await writeJsonFile(path, claim, lock);
  // The file now there must be this claim: a write that landed after its lock went stale is
  // repaired back to the successor's claim (locked-write.ts), and stamping that file by path would
  // count a beat on the successor's claim and cache its inode as this claim's (break test, session 20).
  const own = stampIfHeld(path, claim.token, claim.state);
  if (!own) throw claimLost(team, claim.member, await readClaim(ctx, team, claim.member).catch(() => undefined));
  remember(path, own.stamped, own.claim);
  return own.claim;
}

/** A stamp of a claim file: its new mtime (the beat, epoch ms), inode and ctime after the stamp. */
type Stamp = { at: number; ino: number; ctimeNs: bigint };

/**
 * Stamps `path` with the filesystem's clock: `ftruncate` to its own length changes no byte and sets
 * its mtime to the filesystem's now (on NFS, the server's). Returns the stamp, or undefined when
 * the file is missing — or when `accept` (given the open file's descriptor and its stat before the
 * stamp) refuses the file; then nothing is stamped. Everything goes through one descriptor, so
 * what `accept` judged is the file stamped. `create` makes an empty file first.
 */
function stampFile(path: string, create = false, accept?: (fd: number, before: BigIntStats) => boolean): Stamp | undefined {
  let fd: number;
  try {
    fd = openSync(path, create ? 'a' : 'r+');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return undefined;
    throw err;
  }
  try {
    const before = fstatSync(fd, { bigint: true });
    if (accept && !accept(fd, before)) return undefined;
    ftruncateSync(fd, Number(before.size));
    const s = fstatSync(fd, { bigint: true });
    return { at: Number(s.mtimeNs) / 1e6, ino: Number(s.ino), ctimeNs: s.ctimeNs };
  } finally {
    closeSync(fd);
  }
}

/**
 * Stamps `path` only while it is the file this process last stamped or wrote (same inode and ctime:
 * a file renamed into place by another writer may reuse a freed inode number on ext4, never its ctime).
 */
function stampIfUnchanged(path: string, last: { ino: number; ctimeNs: bigint }): Stamp | undefined {
  return stampFile(path, false, (_fd, before) => Number(before.ino) === last.ino && before.ctimeNs === last.ctimeNs);
}

/** The filesystem's clock now (epoch ms): the mtime of `<readers>/<team>/.clock` as this call stamps it. */
export async function readClock(ctx: FsContext, team: string): Promise<number> {
  const dir = ctx.layout.readerDir(team);
  await ensureDir(dir);
  const stamped = stampFile(join(dir, '.clock'), true);
  if (!stamped) throw new Error(`could not stamp ${join(dir, '.clock')}`);
  return stamped.at;
}

/**
 * Takes the member's claim unless a live one exists (or `evict` names exactly its holder); the
 * leases of the holder it replaces are released at once. @throws TEAMMATE_RUNNING, MEMBER_NOT_FOUND
 */
export async function claimReader(ctx: FsContext, team: string, member: string, holder: ReaderHolder, options: ClaimReaderOptions = {}): Promise<Transition<ReaderClaim>> {
  requireMember(await readConfig(ctx, team), member);
  const path = ctx.layout.readerClaimPath(team, member);
  await ensureDir(ctx.layout.readerDir(team));
  const { claim, replaced } = await locked(ctx, path, async (lock) => {
    const current = await readClaim(ctx, team, member);
    // Judged by the filesystem's clock, read after the claim: a beat that landed meanwhile only makes it look younger.
    if (current && !mayTakeOver(current, await readClock(ctx, team), options.evict)) throw readerTaken(team, member, current);
    const stored: StoredClaim = { v: 1, member, token: randomUUID(), kind: holder.kind, host: holder.host, pid: holder.pid, startedAt: holder.startedAt, state: 'idle', ttlMs: options.ttlMs ?? DEFAULT_READER_TTL_MS };
    return { claim: await writeClaim(ctx, team, stored, lock), replaced: current?.token };
  });
  const events = replaced === undefined ? [] : (await releaseReaderLeases(ctx, team, member, replaced, options)).events;
  return { value: claim, events };
}

/**
 * Renews the claim (and records `state`); the beat is the filesystem's stamp on the claim file.
 * @throws TEAMMATE_RUNNING when `token` no longer holds it
 */
export async function beat(ctx: FsContext, team: string, member: string, token: string, state: ReaderClaim['state'], _op?: OpContext): Promise<Transition<ReaderClaim>> {
  const path = ctx.layout.readerClaimPath(team, member);
  const cached = known.get(path);
  if (cached && cached.claim.token === token && cached.claim.state === state) {
    // The file this process last stamped or wrote, unchanged since (inode and ctime): still its claim.
    const stamped = stampIfUnchanged(path, cached);
    if (stamped) {
      remember(path, stamped, cached.claim);
      return { value: { ...cached.claim, lastBeatAt: stamped.at }, events: [] };
    }
  }
  const own = stampIfHeld(path, token, state);
  if (own) {
    remember(path, own.stamped, own.claim);
    return { value: { ...own.claim, lastBeatAt: own.stamped.at }, events: [] };
  }
  const current = await readClaim(ctx, team, member);
  if (!current || current.token !== token) throw claimLost(team, member, current);
  const claim = await locked(ctx, path, async (lock) => {
    const again = await readClaim(ctx, team, member);
    if (!again || again.token !== token) throw claimLost(team, member, again);
    const { lastBeatAt: _beat, ...rest } = again;
    return writeClaim(ctx, team, { v: 1, ...rest, state }, lock);
  });
  return { value: claim, events: [] };
}

/**
 * Reads the claim file and, when `token` holds it in `state`, stamps that same file — one
 * descriptor for both, so the stamp lands on the inode whose content named the token. (Reading by
 * path and stamping by path again let a beat paused in between stamp a successor's claim renamed
 * into place meanwhile, count as landed, and cache the successor's inode as its own: its later
 * beats and a turn's confirmation kept landing on a lost claim — session 20 break test.)
 * Undefined when the file is missing, unparseable, another token's or in another state: the
 * caller's slow path decides (and reports FILE_CORRUPT or the loss).
 */
function stampIfHeld(path: string, token: string, state: ReaderClaim['state']): { claim: ReaderClaim; stamped: Stamp } | undefined {
  let held: StoredClaim | undefined;
  const stamped = stampFile(path, false, (fd) => {
    try {
      const parsed = ClaimSchema.safeParse(JSON.parse(readFileSync(fd, 'utf8')));
      held = parsed.success && parsed.data.token === token && parsed.data.state === state ? parsed.data : undefined;
    } catch {
      held = undefined;
    }
    return held !== undefined;
  });
  return stamped && held ? { claim: claimOf(held, stamped.at), stamped } : undefined;
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
    const path = join(dir, name);
    const before = statOrUndefined(path);
    if (!before) continue;
    const stored = parsedClaims.get(path);
    // A beat only stamps the file; every change of its content replaces it (a new inode): a claim
    // whose file is the one read before is known without reading it again (issue 24 item 3).
    if (stored && stored.id === fileId(before)) {
      claims.push({ ...claimOf(stored.claim, before.mtimeMs), token: '' });
      continue;
    }
    const read = await readJsonFile(path, { attempts: 1 }).catch(() => undefined);
    const parsed = read?.state === 'ok' ? ClaimSchema.safeParse(read.value) : undefined;
    const s = statOrUndefined(path);
    if (!parsed?.success || !s) continue;
    // Without a birth time (a filesystem that keeps none) a freed inode may come back with the same size: not cached.
    if (fileId(s) === fileId(before) && s.birthtimeMs > 0) parsedClaims.set(path, { id: fileId(s), claim: parsed.data });
    claims.push({ ...claimOf(parsed.data, s.mtimeMs), token: '' });
  }
  return claims;
}

/** Claim files this process parsed in {@link readClaims}: path → the file's identity then, and its record. */
const parsedClaims = new Map<string, { id: string; claim: StoredClaim }>();

/** A file's identity across beats: inode, size and birth time (a beat changes none of them; a rewrite is a new file). */
function fileId(s: Stats): string {
  return `${s.ino}:${s.size}:${s.birthtimeMs}`;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

