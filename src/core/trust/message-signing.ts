/**
 * Signing what a mailroom member sends in a signed team (docs/approvals.md "Signed teams"): every
 * entry gets `mailroom_sig` (the sender's Ed25519 signature over team, sender, recipient, msg_id,
 * signing time, a nonce, the recipient's incarnation, an expiry for control messages, text and
 * summary) and, unless the lead's own key signs, `mailroom_cert` (the lead's endorsement of the
 * sender's key). A sender that has no identity (a Claude Code member) sends unsigned; one that has
 * an identity but whose private key is not on this machine is refused (KEY_MISSING, with the fix).
 */
import { MailroomError } from '../../errors.js';
import { findMember } from '../../domain/roster.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { TeamSettings } from '../../protocol/settings.js';
import type { StoredKey } from '../../protocol/identity-files.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { recordIsFor } from '../../protocol/member-record.js';
import { CERT_FIELD, CONTROL_TTL_MS, SIG_FIELD, decodeCertificate, encodeSignature, keyIdOf, newNonce, signEntry } from '../../protocol/signature.js';
import type { OutgoingMessage } from '../../store/team-store.js';
import { hostOf, nowOf, type TeamOptions } from '../context.js';
import { currentLeadKey, loadTrust, type Trust } from './trust.js';
import { controlTypeOf } from './verify.js';

/** How `from` signs on this machine: its key pair and the certificate to attach (none for the lead). */
interface Signer {
  key: StoredKey;
  cert: string | undefined;
}

/**
 * `messages` from `from`, each signed when the team is signed on this machine and `from` can sign;
 * unchanged otherwise. `team` is the config (and the settings, when read) the send checked them
 * against. @throws KEY_MISSING (the sender signs, and its private key is not here), KEY_PERMISSIONS
 */
export async function signOutgoing(options: TeamOptions, team: { config: TeamConfig; settings?: TeamSettings }, from: string, messages: readonly OutgoingMessage[]): Promise<OutgoingMessage[]> {
  if (messages.length === 0) return [...messages];
  const { config } = team;
  const trust = await loadTrust(options, team);
  if (!trust.signed) return [...messages];
  const signer = await signerOf(options, trust, from);
  if (!signer) return [...messages];
  const at = nowOf(options);
  return messages.map(({ to, entry }) => {
    const control = controlTypeOf(entry.text) !== undefined;
    const incarnation = findMember(config, to)?.joinedAt;
    const parts = signEntry(signer.key, { team: options.team, from, to, msgId: entry.msg_id ?? '', text: entry.text, summary: entry.summary }, { at, nonce: newNonce(), incarnation, expires: control ? at + CONTROL_TTL_MS : undefined });
    const signed: InboxEntry = { ...entry, [SIG_FIELD]: encodeSignature(parts) };
    if (signer.cert !== undefined) signed[CERT_FIELD] = signer.cert;
    return { to, entry: signed };
  });
}

/**
 * Checks, before a teammate starts, that it can sign here: nothing in an open team or for a sender
 * without an identity. @throws KEY_MISSING naming the key file and the fix, KEY_PERMISSIONS
 */
export async function assertCanSign(options: TeamOptions, from: string): Promise<void> {
  const trust = await loadTrust(options);
  if (trust.signed && trust.keys.length > 0) await signerOf(options, trust, from);
}

async function signerOf(options: TeamOptions, trust: Trust, from: string): Promise<Signer | undefined> {
  const host = hostOf(options);
  const key = await host.readMemberKey(options.team, from);
  const where = `${host.location}/mailroom/keys/`;
  if (from === trust.lead) {
    const head = currentLeadKey(trust);
    if (!head) throw new MailroomError('KEY_MISSING', `Team "${options.team}" was signed with an earlier release's HMAC team key, which this release does not sign with: run \`mailroom team rekey ${options.team}\` on the machine that created the team.`, { details: { team: options.team, member: from } });
    if (!key || keyIdOf(key.publicKey) !== head.keyId) throw keyMissing(options.team, from, where, 'the lead signs every message it sends; send as the lead from the machine that created the team (or the one that last ran `mailroom team rekey`)');
    return { key, cert: undefined };
  }
  const member = findMember(trust.config, from);
  const record = member ? trust.records.find((r) => r.name === from && recordIsFor(r, member)) : undefined;
  const reissued = decodeCertificate(trust.settings.signing?.certs?.[from]);
  const publicKey = reissued && reissued.joinedAt === member?.joinedAt ? reissued.publicKey : record?.identity?.publicKey;
  if (publicKey === undefined) return undefined;
  if (!key || key.publicKey !== publicKey) throw keyMissing(options.team, from, where, `"${from}" signs every message it sends and its key was made where it was spawned; run it there, or make it a new key here with \`mailroom team rekey --member ${from}\` on a machine holding the lead's key`);
  const cert = reissued && reissued.publicKey === key.publicKey ? trust.settings.signing!.certs![from] : (key.cert ?? record?.identity?.cert);
  return { key, cert };
}

function keyMissing(team: string, member: string, where: string, fix: string): MailroomError {
  return new MailroomError('KEY_MISSING', `The private key of "${member}" in signed team "${team}" is not on this machine (${where}${team}/${member}.key.json): ${fix}.`, { details: { team, member, rule: 'signature' } });
}
