/**
 * Ed25519 identities and message signatures (src/protocol/signature.ts): what each statement binds,
 * and that the encoded fields round-trip.
 */
import { expect, it } from 'vitest';
import {
  decodeCertificate,
  decodeSignature,
  encodeCertificate,
  encodeSignature,
  keyIdOf,
  makeCertificate,
  makeRotation,
  makeSigningOff,
  newKeyPair,
  newNonce,
  pairMatches,
  signEntry,
  verifyCertificate,
  verifyEntry,
  verifyRotation,
  verifySigningOff,
} from '../../../src/protocol/signature.js';

const lead = newKeyPair();
const bob = newKeyPair();
const entry = { team: 'demo', from: 'bob', to: 'alice', msgId: 'm-1', text: 'hello', summary: 'hi' };

it('a message signature binds team, sender, recipient, msg_id, time, nonce, incarnation, expiry, text and summary', () => {
  const parts = signEntry(bob, entry, { at: 1000, nonce: newNonce(), incarnation: 900, expires: 5000 });
  const back = decodeSignature(encodeSignature(parts))!;
  expect(back).toEqual(parts);
  expect(verifyEntry(bob.publicKey, entry, back)).toBe(true);
  for (const changed of [{ team: 'x' }, { from: 'carol' }, { to: 'carol' }, { msgId: 'm-2' }, { text: 'hellO' }, { summary: undefined }]) {
    expect(verifyEntry(bob.publicKey, { ...entry, ...changed }, back)).toBe(false);
  }
  for (const changed of [{ at: 1001 }, { nonce: newNonce() }, { incarnation: 901 }, { expires: 9999 }]) expect(verifyEntry(bob.publicKey, entry, { ...back, ...changed })).toBe(false);
  expect(verifyEntry(lead.publicKey, entry, back)).toBe(false);
});

it('no incarnation or expiry encodes as empty parts; junk decodes as nothing', () => {
  const parts = signEntry(bob, entry, { at: 1, nonce: newNonce() });
  expect(decodeSignature(encodeSignature(parts))).toEqual({ ...parts, incarnation: undefined, expires: undefined });
  for (const junk of [undefined, 3, '', 'v1.abc.def', encodeSignature(parts).replace('s2.', 's3.')]) expect(decodeSignature(junk)).toBeUndefined();
});

it("a certificate is the lead key's endorsement of one name's key for one incarnation", () => {
  const cert = decodeCertificate(encodeCertificate(makeCertificate(lead, 'demo', 'bob', 900, bob.publicKey)))!;
  expect(verifyCertificate(cert, 'demo', 'bob', lead.publicKey)).toBe(true);
  expect(verifyCertificate(cert, 'demo', 'carol', lead.publicKey)).toBe(false);
  expect(verifyCertificate(cert, 'other', 'bob', lead.publicKey)).toBe(false);
  expect(verifyCertificate({ ...cert, joinedAt: 901 }, 'demo', 'bob', lead.publicKey)).toBe(false);
  expect(verifyCertificate({ ...cert, publicKey: newKeyPair().publicKey }, 'demo', 'bob', lead.publicKey)).toBe(false);
  expect(verifyCertificate(cert, 'demo', 'bob', bob.publicKey)).toBe(false);
});

it('rotations and signing off are signed by the lead key they name', () => {
  const next = newKeyPair();
  const rotation = makeRotation(lead, 'demo', next.publicKey, 10);
  expect(rotation.from).toBe(keyIdOf(lead.publicKey));
  expect(verifyRotation(rotation, 'demo', lead.publicKey)).toBe(true);
  expect(verifyRotation({ ...rotation, publicKey: bob.publicKey }, 'demo', lead.publicKey)).toBe(false);
  const off = makeSigningOff(lead, 'demo', 20);
  expect(verifySigningOff(off, 'demo', lead.publicKey)).toBe(true);
  expect(verifySigningOff(off, 'demo', next.publicKey)).toBe(false);
  expect(verifySigningOff({ ...off, at: 21 }, 'demo', lead.publicKey)).toBe(false);
});

it('a key pair whose halves do not belong together is recognised', () => {
  expect(pairMatches(bob)).toBe(true);
  expect(pairMatches({ publicKey: lead.publicKey, privateKey: bob.privateKey })).toBe(false);
});
