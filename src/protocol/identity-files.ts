/**
 * A machine's own identity files in a signed team (host store, `<root>/mailroom/keys/<team>/`, each
 * mode 0600, the directory 0700; docs/format.md "Identity files"). Never in shared state.
 *
 * - `<member>.key.json` ({@link StoredKey}): a member's Ed25519 key pair, made on the machine it
 *   runs on, with the certificate the lead gave it.
 * - `lead-pin.json` ({@link LeadPin}): the lead's public keys this machine trusts, pinned when the
 *   team was created here or when this machine first joined it, extended only by rotations the
 *   pinned key signed. Its presence makes the team signed on this machine, whatever the shared
 *   settings say.
 * - `<member>.obeyed.json` ({@link ObeyedIds}): the control messages a member's reader obeyed in its
 *   current incarnation (by nonce, with their expiry), so a replayed one is refused.
 * - `<member>.seen.json` ({@link SeenIds}): the signed plain messages a member's reader consumed (by
 *   nonce, with their signing time), at most {@link SEEN_LIMIT}, so a copy appended again is a replay.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** A member's key pair on this machine. */
export const StoredKeySchema = lazySchema(() => z.looseObject({
  v: z.literal(1),
  team: z.string(),
  name: z.string(),
  /** The incarnation (roster `joinedAt`) the key was made for. */
  joinedAt: z.number(),
  /** Raw Ed25519 public key, base64url. */
  publicKey: z.string(),
  /** The private key's JWK `d`, base64url. */
  privateKey: z.string(),
  /** The lead's certificate (`mailroom_cert` value); absent for the lead's own key. */
  cert: z.string().optional(),
}));
/** See {@link StoredKeySchema}. */
export type StoredKey = z.infer<typeof StoredKeySchema>;

/** One trusted lead key. */
const PinnedKeySchema = lazySchema(() => z.object({ keyId: z.string(), publicKey: z.string(), since: z.number() }));

/** The lead keys this machine trusts for a team, oldest first (the last is current). */
export const LeadPinSchema = lazySchema(() => z.looseObject({
  v: z.literal(1),
  team: z.string(),
  /** The lead's member name. */
  lead: z.string(),
  keys: z.array(PinnedKeySchema).min(1),
  /** When this machine pinned (epoch ms). */
  pinnedAt: z.number(),
}));
/** See {@link LeadPinSchema}. */
export type LeadPin = z.infer<typeof LeadPinSchema>;

/** Control messages a reader obeyed: nonce → expiry (epoch ms), for one incarnation. */
export const ObeyedIdsSchema = lazySchema(() => z.looseObject({
  v: z.literal(1),
  joinedAt: z.number(),
  ids: z.record(z.string(), z.number()),
}));
/** See {@link ObeyedIdsSchema}. */
export type ObeyedIds = z.infer<typeof ObeyedIdsSchema>;

/** How many consumed plain-message nonces a reader remembers (oldest by signing time dropped first). */
export const SEEN_LIMIT = 4096;

/**
 * Signed plain messages a reader consumed: nonce → signing time (epoch ms). `floor`: the latest
 * signing time among the nonces dropped to stay within {@link SEEN_LIMIT} (0: none dropped); an
 * unread message signed at or before it cannot be told from a replay.
 */
export const SeenIdsSchema = lazySchema(() => z.looseObject({
  v: z.literal(1),
  floor: z.number(),
  ids: z.record(z.string(), z.number()),
}));
/** See {@link SeenIdsSchema}. */
export type SeenIds = z.infer<typeof SeenIdsSchema>;
