/**
 * A hostile signer for tests: signs a message statement with a real (stolen) member key exactly as
 * docs/approvals.md "What is signed" lays it out (`[mailroom-msg-v2, team, from, to, msg_id, at,
 * nonce, incarnation, expires, text, summary]`, src/protocol/signature.ts), without the checks
 * `signEntry` makes on the sender side — as a modified client would. The result goes through the
 * real verifier, so a drift from the format fails the tests that use it as `bad-signature`.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { encodeSignature, keyIdOf, type KeyPair, type SignedEntry } from '../../src/protocol/signature.js';

/** The `mailroom_sig` value of `entry` signed by `pair` at `at` (epoch ms), valid until `expires`. */
export function hostileSignature(pair: KeyPair, entry: SignedEntry, p: { at: number; nonce: string; incarnation?: number; expires?: number }): string {
  const statement = ['mailroom-msg-v2', entry.team, entry.from, entry.to, entry.msgId, p.at, p.nonce, p.incarnation ?? null, p.expires ?? null, entry.text, entry.summary ?? null];
  const key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: pair.publicKey, d: pair.privateKey }, format: 'jwk' });
  const signature = sign(null, Buffer.from(JSON.stringify(statement)), key).toString('base64url');
  return encodeSignature({ keyId: keyIdOf(pair.publicKey), at: p.at, nonce: p.nonce, incarnation: p.incarnation, expires: p.expires, signature });
}
