/**
 * mailroom's own record of a member it registered: `<root>/mailroom/members/<team>/<agent>.json`
 * (docs/format.md "Member records"). It holds what mailroom needs about a member that Claude Code's
 * config.json does not say, or must not: how the member really runs (config.json records every
 * member mailroom runs with no pane and no backend type, src/protocol/backend.ts), and its spawn
 * prompt (Claude Code 2.1.332 writes no `prompt` on members, so mailroom writes none in its
 * teams), and its capabilities (issue 11: what it declares it can do, for routing and for tasks
 * that require one). Unknown keys are kept.
 *
 * A record belongs to one member: `agentId` and `joinedAt` are the config entry's. A record whose
 * pair differs from the member now in the roster is about an earlier member of that name.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { MEMBER_RUNTIMES, type MemberRuntime } from './backend.js';
import { APPROVABLE, type Approvable } from './settings.js';

/** Version of the record format; a reader skips a record with another `v`. */
export const MEMBER_RECORD_VERSION = 1;

/** One member record. Unknown keys are allowed and kept. */
export const MemberRecordSchema = lazySchema(() => z.looseObject({
  v: z.literal(MEMBER_RECORD_VERSION),
  /** The team's name (config `name`). */
  team: z.string(),
  /** The member's name. */
  name: z.string(),
  /** Its agentId, as in config.json. */
  agentId: z.string(),
  /** Its `joinedAt` in config.json (epoch ms): tells this member from an earlier one of the name. */
  joinedAt: z.number(),
  /** How mailroom runs it: `in-process` (a mailroom host), `process`, `mcp`, `tmux`, `iterm2`. */
  runtime: z.enum(MEMBER_RUNTIMES as [string, ...string[]]),
  /** The spawn prompt it was given (also its first inbox message). */
  prompt: z.string().optional(),
  /** Side effects this member needs the lead's approval for (`team spawn --approve commands`), besides the team's. */
  approve: z.array(z.enum(APPROVABLE)).optional(),
  /** What it declares it can do (`review`, `csv`): `team send --to-capability`, tasks' `metadata.requires`. */
  capabilities: z.array(z.string()).optional(),
  /**
   * In a signed team: the member's Ed25519 public key (raw, base64url) and its certificate from the
   * lead (`cert`, a `mailroom_cert` value; absent while no lead key endorsed it). The private key
   * stays in the host store of the machine it was made on (docs/approvals.md "Signed teams").
   */
  identity: z.object({ publicKey: z.string(), keyId: z.string(), cert: z.string().optional() }).optional(),
  /**
   * When the member was removed from the team (epoch ms, the store's clock): set by
   * `TeamStore.removeMember` on the record of a member with an `identity`, which is kept so that its
   * key is revoked from then on — messages it signed before still verify, later ones are refused
   * (docs/approvals.md "Removed members"). A record without it is a current member's.
   */
  removedAt: z.number().optional(),
  /**
   * The keys of earlier members of this name, revoked at their removal: each one's public key, key
   * id, `joinedAt` and `removedAt` (epoch ms, the store's clock), oldest first. A new member of the
   * name replaces the kept record of the one before it, and carries its revocation (and those it
   * carried) here, in the same store step, so that what an old key signed between its removal and
   * the re-spawn stays refused in history too (`revoked-key`; docs/approvals.md "Removed members").
   */
  revokedKeys: z.array(z.object({ publicKey: z.string(), keyId: z.string(), joinedAt: z.number(), removedAt: z.number() })).optional(),
}));

/** One entry of {@link MemberRecord.revokedKeys}. */
export interface RevokedKey {
  publicKey: string;
  keyId: string;
  /** The earlier member's `joinedAt` (epoch ms). */
  joinedAt: number;
  /** When it was removed (epoch ms, the store's clock): its key is revoked from then. */
  removedAt: number;
}

/** A parsed member record. */
export type MemberRecord = z.infer<typeof MemberRecordSchema>;

/** What a registration says about a member beyond its roster entry (the rest of its record comes from the entry). */
export interface MemberRecordDraft {
  /** How mailroom runs the member (src/protocol/backend.ts). */
  runtime: MemberRuntime;
  /** Its spawn prompt (kept here also where the team's config holds none: Claude Code 2.1.332 teams). */
  prompt?: string | undefined;
  /** Side effects it needs the lead's approval for (see {@link MemberRecordSchema}). */
  approve?: readonly Approvable[] | undefined;
  /** Its capabilities (src/domain/capabilities.ts names); none when empty or absent. */
  capabilities?: readonly string[] | undefined;
  /** Its public identity in a signed team (see {@link MemberRecordSchema}). */
  identity?: MemberIdentity | undefined;
}

/** A member's public identity in a signed team: its public key, key id, and the lead's certificate. */
export interface MemberIdentity {
  publicKey: string;
  keyId: string;
  cert?: string | undefined;
}

/** True when `record` is about `member` as it is now in the roster (same agentId and joinedAt). */
export function recordIsFor(record: MemberRecord, member: { agentId: string; joinedAt?: number | undefined }): boolean {
  return record.agentId === member.agentId && record.joinedAt === member.joinedAt;
}

/**
 * What the removal of `member` at `nowMs` (the store's clock, epoch ms) leaves of its `record`: the
 * record marked `removedAt` when it is the member's and holds an identity (its key is revoked from
 * then, not forgotten), else nothing (the record is deleted — unless it is an earlier member's kept
 * record, marked `removedAt`, which the removal leaves as it is: a Claude Code member registered
 * under the name has no record of its own, and its removal must not undo that revocation). Redis
 * re-expresses it in remove-member.lua.
 */
export function retiredRecord(record: MemberRecord | undefined, member: { agentId: string; joinedAt?: number | undefined }, nowMs: number): MemberRecord | undefined {
  if (!record?.identity || !recordIsFor(record, member) || record.removedAt !== undefined) return undefined;
  return { ...record, removedAt: nowMs };
}

/**
 * The record a new member of the name writes in place of `prior` (the record stored under the name
 * now, if any): `record` with the revoked keys `prior` carried, then `prior`'s own key when `prior`
 * is a kept record (marked `removedAt`, with an identity) — oldest first. Unchanged when there is
 * none. Redis re-expresses it in add-member.lua.
 */
export function replacingRecord(record: MemberRecord, prior: MemberRecord | undefined): MemberRecord {
  const carried: RevokedKey[] = [...(prior?.revokedKeys ?? [])];
  if (prior?.identity && prior.removedAt !== undefined) carried.push({ publicKey: prior.identity.publicKey, keyId: prior.identity.keyId, joinedAt: prior.joinedAt, removedAt: prior.removedAt });
  return carried.length === 0 ? record : { ...record, revokedKeys: carried };
}
