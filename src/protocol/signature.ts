/**
 * Member identities and message signatures of a signed team (docs/approvals.md "Signed teams",
 * docs/format.md "Signature fields"): Ed25519 (node:crypto), every key a raw 32-byte public key in
 * base64url, every signed statement a JSON array (one canonical byte string, as Claude Code 2.1.332's
 * `lead_sig` does). Pure: no I/O.
 *
 * - A **certificate** (`mailroom_cert` entry field, and the member record's `identity`): the lead's
 *   key endorses `[CERT_TAG, team, name, joinedAt, publicKey]`.
 * - A **message signature** (`mailroom_sig` entry field), by the sender's key:
 *   `[MSG_TAG, team, from, to, msg_id, at, nonce, incarnation|null, expires|null, text, summary|null]`.
 *   `at` is when it was signed (epoch ms; the store may move the entry's own `timestamp` a few ms
 *   later), `incarnation` the recipient's `joinedAt`, `expires` an epoch ms after which a reader
 *   refuses it (control messages).
 * - A **rotation** (`team rekey`): the old lead key endorses `[ROTATE_TAG, team, oldKeyId, newPublicKey, at]`.
 * - **Signing off** (`team unsign`): the lead key signs `[UNSIGN_TAG, team, keyId, at]`.
 *
 * Claude Code keeps unknown entry fields and ignores them (reference §3), so both fields ride along.
 */
import { MailroomError } from '../errors.js';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';

/** Entry field carrying the message signature. */
export const SIG_FIELD = 'mailroom_sig';
/** Entry field carrying the signer's certificate (absent when the lead's own key signed). */
export const CERT_FIELD = 'mailroom_cert';

/**
 * Control messages: protocol types a reader acts on (stops, answers, assignments). In a signed team
 * one that fails verification is withheld, never handed over; its signature must also name the
 * recipient's incarnation and not be expired or obeyed before.
 */
export const CONTROL_TYPES: readonly string[] = ['shutdown_request', 'task_assignment', 'permission_response', 'plan_approval_response', 'sandbox_permission_response'];
/** Kept for callers of the earlier name: the same list as {@link CONTROL_TYPES}. */
export const SIGNED_TYPES = CONTROL_TYPES;

/** How long a signed control message may be obeyed after it was signed (ms): 1 hour. */
export const CONTROL_TTL_MS = 60 * 60 * 1000;

/**
 * The longest lifetime (expiry − signing time, ms) of a control message any reader accepts: 1 hour,
 * what mailroom signs ({@link CONTROL_TTL_MS}). Beyond it a reader refuses the message
 * (`expiry-too-long`, src/core/trust/verify.ts) and {@link signEntry} refuses to sign it, so a member
 * — or whoever stole its key — cannot sign a `shutdown_request` that is obeyed for years.
 */
export const CONTROL_MAX_TTL_MS = CONTROL_TTL_MS;

/**
 * How far ahead of a reader's clock a control message's signing time may lie (ms): 5 minutes of
 * clock skew between machines. A reader refuses a control message whose expiry is more than
 * {@link CONTROL_MAX_TTL_MS} + this after its own now (`expiry-too-long`): signed "in the future",
 * it would otherwise outlive the maximum.
 */
export const SIGNING_SKEW_MS = 5 * 60 * 1000;

const CERT_TAG = 'mailroom-member-v2';
const MSG_TAG = 'mailroom-msg-v2';
const ROTATE_TAG = 'mailroom-rotate-v2';
const UNSIGN_TAG = 'mailroom-unsign-v2';

/** An Ed25519 key pair: the public key as raw base64url, the private key as its JWK `d` (base64url). */
export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

/** Makes a new Ed25519 key pair. */
export function newKeyPair(): KeyPair {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return { publicKey: jwk.x!, privateKey: jwk.d! };
}

/** The id of a public key: the first 16 hex digits of the SHA-256 of its raw bytes. */
export function keyIdOf(publicKey: string): string {
  return createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('hex').slice(0, 16);
}

/** A fresh nonce: 12 random bytes, base64url. */
export function newNonce(): string {
  return randomBytes(12).toString('base64url');
}

const privateCache = new Map<string, KeyObject>();
const publicCache = new Map<string, KeyObject>();

function privateKeyOf(pair: KeyPair): KeyObject {
  let k = privateCache.get(pair.privateKey);
  if (!k) {
    k = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: pair.publicKey, d: pair.privateKey }, format: 'jwk' });
    privateCache.set(pair.privateKey, k);
  }
  return k;
}

function publicKeyOf(publicKey: string): KeyObject | undefined {
  let k = publicCache.get(publicKey);
  if (!k) {
    try {
      k = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
    } catch {
      return undefined;
    }
    if (publicCache.size > 1000) publicCache.clear();
    publicCache.set(publicKey, k);
  }
  return k;
}

/** True when `pair`'s private key belongs to its public key (a key file not tampered with). */
export function pairMatches(pair: KeyPair): boolean {
  try {
    return createPublicKey(privateKeyOf(pair)).export({ format: 'jwk' }).x === pair.publicKey;
  } catch {
    return false;
  }
}

function signStatement(pair: KeyPair, statement: readonly unknown[]): string {
  return sign(null, Buffer.from(JSON.stringify(statement)), privateKeyOf(pair)).toString('base64url');
}

function verifyStatement(publicKey: string, statement: readonly unknown[], signature: string): boolean {
  const key = publicKeyOf(publicKey);
  if (!key || !/^[A-Za-z0-9_-]{86}$/.test(signature)) return false;
  return verify(null, Buffer.from(JSON.stringify(statement)), key, Buffer.from(signature, 'base64url'));
}

// ---------------------------------------------------------------------------------------------
// Certificates

/** A member's certificate: its public key for one incarnation, endorsed by a lead key. */
export interface Certificate {
  joinedAt: number;
  publicKey: string;
  /** Id of the lead key that endorsed it. */
  leadKeyId: string;
  signature: string;
}

/** The lead key `lead` endorses `publicKey` as `name`'s (joined at `joinedAt`) in `team`. */
export function makeCertificate(lead: KeyPair, team: string, name: string, joinedAt: number, publicKey: string): Certificate {
  return { joinedAt, publicKey, leadKeyId: keyIdOf(lead.publicKey), signature: signStatement(lead, [CERT_TAG, team, name, joinedAt, publicKey]) };
}

/** True when `cert` is `name`'s in `team`, endorsed by the lead public key `leadPublicKey`. */
export function verifyCertificate(cert: Certificate, team: string, name: string, leadPublicKey: string): boolean {
  return keyIdOf(leadPublicKey) === cert.leadKeyId && verifyStatement(leadPublicKey, [CERT_TAG, team, name, cert.joinedAt, cert.publicKey], cert.signature);
}

/** The `mailroom_cert` field value: `c2.<joinedAt>.<publicKey>.<leadKeyId>.<signature>`. */
export function encodeCertificate(cert: Certificate): string {
  return `c2.${cert.joinedAt}.${cert.publicKey}.${cert.leadKeyId}.${cert.signature}`;
}

/** Parses a `mailroom_cert` value; undefined when it is not one. */
export function decodeCertificate(value: unknown): Certificate | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^c2\.(\d{1,16})\.([A-Za-z0-9_-]{43})\.([0-9a-f]{16})\.([A-Za-z0-9_-]{86})$/.exec(value);
  return m ? { joinedAt: Number(m[1]), publicKey: m[2]!, leadKeyId: m[3]!, signature: m[4]! } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Message signatures

/** What a message signature binds besides the entry's own fields. */
export interface SignatureParts {
  /** Id of the signing key. */
  keyId: string;
  /** When it was signed (epoch ms). */
  at: number;
  nonce: string;
  /** The recipient's `joinedAt` when the sender knew it. */
  incarnation?: number | undefined;
  /** Epoch ms after which it must not be obeyed (control messages). */
  expires?: number | undefined;
  signature: string;
}

/** The fields of an entry a signature covers. */
export interface SignedEntry {
  team: string;
  from: string;
  to: string;
  msgId: string;
  text: string;
  summary?: string | undefined;
}

function messageStatement(e: SignedEntry, p: Omit<SignatureParts, 'signature' | 'keyId'>): unknown[] {
  return [MSG_TAG, e.team, e.from, e.to, e.msgId, p.at, p.nonce, p.incarnation ?? null, p.expires ?? null, e.text, e.summary ?? null];
}

/**
 * Signs `entry` with `pair`. @throws INVALID_ARGUMENT when `parts.expires` lies more than
 * {@link CONTROL_MAX_TTL_MS} after `parts.at` or before it: no reader would accept it.
 */
export function signEntry(pair: KeyPair, entry: SignedEntry, parts: Omit<SignatureParts, 'signature' | 'keyId'>): SignatureParts {
  if (parts.expires !== undefined && (parts.expires < parts.at || parts.expires - parts.at > CONTROL_MAX_TTL_MS)) {
    throw new MailroomError('INVALID_ARGUMENT', `A message's expiry must lie within ${CONTROL_MAX_TTL_MS / 60_000} minutes after its signing time (signed at ${parts.at}, expiring at ${parts.expires}): no reader accepts a longer one; nothing was signed.`, {
      details: { at: parts.at, expires: parts.expires, maxMs: CONTROL_MAX_TTL_MS },
    });
  }
  return { ...parts, keyId: keyIdOf(pair.publicKey), signature: signStatement(pair, messageStatement(entry, parts)) };
}

/** True when `parts` is a signature of `entry` by `publicKey`. */
export function verifyEntry(publicKey: string, entry: SignedEntry, parts: SignatureParts): boolean {
  return keyIdOf(publicKey) === parts.keyId && verifyStatement(publicKey, messageStatement(entry, parts), parts.signature);
}

/** The `mailroom_sig` field value: `s2.<keyId>.<at>.<nonce>.<incarnation|>.<expires|>.<signature>`. */
export function encodeSignature(p: SignatureParts): string {
  return `s2.${p.keyId}.${p.at}.${p.nonce}.${p.incarnation ?? ''}.${p.expires ?? ''}.${p.signature}`;
}

/** Parses a `mailroom_sig` value; undefined when it is not one. */
export function decodeSignature(value: unknown): SignatureParts | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^s2\.([0-9a-f]{16})\.(\d{1,16})\.([A-Za-z0-9_-]{16})\.(\d{0,16})\.(\d{0,16})\.([A-Za-z0-9_-]{86})$/.exec(value);
  if (!m) return undefined;
  return { keyId: m[1]!, at: Number(m[2]), nonce: m[3]!, incarnation: m[4] === '' ? undefined : Number(m[4]), expires: m[5] === '' ? undefined : Number(m[5]), signature: m[6]! };
}

// ---------------------------------------------------------------------------------------------
// Lead key rotation and signing off

/** A lead key rotation (`team rekey`): the old key endorses the new one. */
export interface Rotation {
  from: string;
  publicKey: string;
  at: number;
  signature: string;
}

/** The old lead key `old` hands over to `publicKey`. */
export function makeRotation(old: KeyPair, team: string, publicKey: string, at: number): Rotation {
  const from = keyIdOf(old.publicKey);
  return { from, publicKey, at, signature: signStatement(old, [ROTATE_TAG, team, from, publicKey, at]) };
}

/** True when `rotation` is endorsed by `oldPublicKey`. */
export function verifyRotation(rotation: Rotation, team: string, oldPublicKey: string): boolean {
  return keyIdOf(oldPublicKey) === rotation.from && verifyStatement(oldPublicKey, [ROTATE_TAG, team, rotation.from, rotation.publicKey, rotation.at], rotation.signature);
}

/** The lead's signed statement that `team` is no longer signed (`team unsign`). */
export interface SigningOff {
  keyId: string;
  at: number;
  signature: string;
}

/** Signs `team`'s signing off with the lead key. */
export function makeSigningOff(lead: KeyPair, team: string, at: number): SigningOff {
  const keyId = keyIdOf(lead.publicKey);
  return { keyId, at, signature: signStatement(lead, [UNSIGN_TAG, team, keyId, at]) };
}

/** True when `off` is signed by `leadPublicKey`. */
export function verifySigningOff(off: SigningOff, team: string, leadPublicKey: string): boolean {
  return keyIdOf(leadPublicKey) === off.keyId && verifyStatement(leadPublicKey, [UNSIGN_TAG, team, off.keyId, off.at], off.signature);
}
