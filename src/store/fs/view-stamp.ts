/**
 * The filesystem's view stamp ({@link TeamStore.viewStamp}): one `stat` of each file a sender's
 * view is read from — config.json (roster), mailroom-settings.json (policy, signing) and the member
 * records' directory (a record written, replaced by rename or removed changes its mtime and ctime) —
 * and a digest of config.json with every member's `isActive` left out and its keys sorted (a
 * rewrite that only reorders keys or spaces, as another writer may, changes no view).
 * Every writer of those replaces the file by rename, so a change gives a new inode, size or
 * instant: two equal stats mean none of them was written in between, save three writes within
 * one tick of the file system's clock that leave a file with its inode number reused and its size
 * unchanged (docs/architecture.md "A send's view of its team").
 *
 * A member's presence is no part of a sender's view: a teammate flips its `isActive` in
 * config.json at every turn (as Claude Code does), and a stamp that moved with it refused sends to
 * a busy team VIEW_MOVED over and over. So when only config.json's stat differs, the append's step
 * reads and parses it and compares the digest instead: equal digests mean nothing but presence changed (the
 * Redis store's stamp skips `isActive` alone the same way: update-member.lua). The digest is of the
 * config read when the stamp was taken; a config changed and changed back exactly between that read
 * and the sender's own read of it passes as unchanged (the store still checks every recipient in
 * the step).
 *
 * Sends compare it under the first recipient's inbox lock (inbox-append.ts). A take that hands out
 * entries returns the stamp taken right after its step (leases.ts; Lease.viewStamp), so a
 * teammate's kept view (runtime/delivery/team-view.ts) serves those entries when {@link sameView}
 * says its reads' stamp is the same view: the woken teammate's guard and prompt read nothing
 * (issue 24: delivery to an idle `mailroom agent`). The caveat above (three writes in one tick
 * reusing an inode with the same size) holds for that comparison as for sends.
 */
import { statStamp } from './change-stamp.js';
import { readSmallFile } from './small-file.js';
import type { FsContext } from './context.js';
import { readConfig } from './teams.js';

/** The largest config.json digested (bytes); a larger one stamps `-` and any change to it moves the view. */
const CONFIG_MAX_BYTES = 64 * 1024 * 1024;

/** The stats part of the stamp now: config, settings and member records (no check that the team exists). */
function statsNow(ctx: FsContext, team: string): string {
  const l = ctx.layout;
  return `${statStamp(l.configPath(team))}|${statStamp(l.settingsPath(team))}|${statStamp(l.memberRecordDir(team))}`;
}

/**
 * A 53-bit digest of `text` (cyrb53, public domain): not node:crypto, which a one-shot files send
 * does not load (test/unit/protocol/random.test.ts). It tells an accidental change from none; who
 * can write config.json needs no collision to change the roster.
 */
function digest53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** `value` as JSON with every object's keys sorted: a rewrite that only reorders keys or spaces is the same view. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}

/** A digest of config.json with every member's `isActive` left out (keys sorted: {@link canonical}); `-` when it cannot be read or parsed. */
function configDigest(ctx: FsContext, team: string): string {
  try {
    // Judged on the file opened: a FIFO swapped in for config.json must not block the locked step.
    const found = readSmallFile(ctx.layout.configPath(team), CONFIG_MAX_BYTES);
    if (found.kind !== 'ok') return '-';
    const config = JSON.parse(found.text) as { members?: unknown };
    if (Array.isArray(config.members)) for (const m of config.members) if (m !== null && typeof m === 'object') delete (m as { isActive?: unknown }).isActive;
    return digest53(canonical(config));
  } catch {
    return '-';
  }
}

/**
 * True when the team's view is still the one `stamp` was taken of: the same stats, or stats that
 * differ in config.json alone with a config that, presence left out, is the same. Synchronous
 * (three `stat` calls; one read and parse of config.json when only its stat moved): called inside the
 * append's locked step.
 */
export function viewUnchanged(ctx: FsContext, team: string, stamp: string): boolean {
  const now = statsNow(ctx, team);
  const hash = stamp.lastIndexOf('#');
  const stats = hash < 0 ? stamp : stamp.slice(0, hash);
  if (stats === now) return true;
  if (hash < 0 || stats.slice(stats.indexOf('|')) !== now.slice(now.indexOf('|'))) return false;
  const digest = configDigest(ctx, team);
  return digest !== '-' && stamp.slice(hash + 1) === digest;
}

/**
 * {@link TeamStore.sameView} on files: equal stamps, or stamps whose settings and member-record
 * stats are equal and whose config digests are equal and known (not `-`) — only config.json's
 * stat moved, as a member's `isActive` write moves it (the same rule as {@link viewUnchanged}).
 * Pure: no file is read.
 */
export function sameView(a: string, b: string): boolean {
  if (a === b) return true;
  const ha = a.lastIndexOf('#');
  const hb = b.lastIndexOf('#');
  if (ha < 0 || hb < 0) return false;
  const digest = a.slice(ha + 1);
  if (digest === '-' || digest !== b.slice(hb + 1)) return false;
  const rest = (s: string, h: number): string | undefined => {
    const bar = s.indexOf('|');
    return bar < 0 || bar > h ? undefined : s.slice(bar, h);
  };
  const ra = rest(a, ha);
  return ra !== undefined && ra === rest(b, hb);
}

/** {@link TeamStore.viewStamp} on files: the stats, `#`, the config's digest. @throws TEAM_NOT_FOUND (no config.json) */
export async function viewStamp(ctx: FsContext, team: string): Promise<string> {
  const stats = statsNow(ctx, team);
  if (stats.startsWith('-|')) await readConfig(ctx, team); // throws the store's own TEAM_NOT_FOUND
  return `${stats}#${configDigest(ctx, team)}`;
}

/**
 * {@link viewStamp} with synchronous calls only (three `stat`s, one read of config.json), for the
 * end of a take. @throws Error when config.json is missing (no stamp of a team that is not there)
 */
export function viewStampNow(ctx: FsContext, team: string): string {
  const stats = statsNow(ctx, team);
  if (stats.startsWith('-|')) throw new Error(`no config.json for team ${team}`);
  return `${stats}#${configDigest(ctx, team)}`;
}
