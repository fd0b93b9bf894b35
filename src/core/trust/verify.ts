/**
 * Verifying inbox entries against what this machine trusts (core/trust/trust.ts): the one check every
 * reader applies — the runtime before a model call, MCP `read_inbox`/`wait_for_message`, a
 * teammate waiting for the lead's answer, `mailroom log --verify` (docs/approvals.md "Signed teams").
 *
 * In a signed team an entry is
 * - `verified`: signed by the lead's pinned key (as the lead), or by a member's key that a
 *   pinned lead key endorsed for that name;
 * - `unverified`: from a sender that cannot sign (a Claude Code member, or a name without an
 *   identity) and not a control message — shown, marked unverified, never as verified;
 * - failed (withheld and reported): unsigned or badly signed while its sender is the lead or a
 *   mailroom member with an identity, any control message that does not verify, one a live reader
 *   gets signed by the key of an earlier incarnation of a member spawned anew, one signed after its
 *   signer's removal with the key it kept (`revoked-key`, in history too), and — for the
 *   reader a control message is for — one bound to another incarnation, older than the reader's
 *   incarnation, past its expiry, or obeyed before; and, for a reader given its replay memory
 *   (`seen`), an unread signed plain message it consumed before (or signed before what that bounded
 *   memory still holds): a copy appended again.
 */
import { findMember } from '../../domain/roster.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import type { ObeyedIds, SeenIds } from '../../protocol/identity-files.js';
import { recordIsFor } from '../../protocol/member-record.js';
import { CERT_FIELD, CONTROL_MAX_TTL_MS, CONTROL_TYPES, SIGNING_SKEW_MS, SIG_FIELD, decodeCertificate, decodeSignature, keyIdOf, verifyCertificate, verifyEntry, type Certificate } from '../../protocol/signature.js';
import { parseMessageText } from '../../protocol/structured.js';
import { currentLeadKey, type Trust } from './trust.js';
import { isEndorsementRequest } from './endorsement.js';
import { isoOf } from '../../domain/shown-value.js';

/** Why an entry failed verification (stable words, shown in logs, MCP `reason` and `log --verify`). */
export type FailCheck =
  | 'unsigned'
  | 'bad-signature'
  | 'unknown-key'
  | 'bad-certificate'
  | 'replaced-key'
  /** Signed, after its removal from the team, with the key of a member removed since (its record's `removedAt`). */
  | 'revoked-key'
  | 'retired-lead-key'
  | 'other-incarnation'
  | 'older-than-incarnation'
  | 'expired'
  /** A control message whose expiry lies more than CONTROL_MAX_TTL_MS after its signing time, or beyond the reader's now plus that and the skew. */
  | 'expiry-too-long'
  | 'replayed'
  | 'no-lead-key'
  /** Signed by the member's own recorded key, which the lead has not endorsed yet (spawned on another machine). */
  | 'unendorsed';

/** The outcome for one entry. */
export type Verdict =
  | { status: 'open' }
  | { status: 'verified'; signer: 'lead' | 'member'; nonce: string; expires?: number | undefined; /** Signing time (epoch ms). */ at: number }
  | { status: 'unverified' }
  | { status: 'failed'; check: FailCheck; reason: string };

/** The reader a control message is checked for (live reading; `log --verify` passes none). */
export interface ReaderView {
  name: string;
  /** Its incarnation (roster `joinedAt`). */
  joinedAt: number | undefined;
  obeyed: ObeyedIds | undefined;
  /** The signed plain messages it consumed (host store); undefined: plain messages are not replay-checked (a redelivery of the same stored entry). */
  seen?: SeenIds | undefined;
  now: number;
}

/** The protocol type of a control message in `text`, else undefined. */
export function controlTypeOf(text: string): string | undefined {
  const p = parseMessageText(text);
  return p.kind === 'structured' && CONTROL_TYPES.includes(p.message.type) ? p.message.type : undefined;
}

/** Judges one entry that reached `to`'s inbox. */
export function verdictOf(trust: Trust, entry: InboxEntry, to: string, reader?: ReaderView): Verdict {
  if (!trust.signed) return { status: 'open' };
  const control = controlTypeOf(entry.text);
  const fail = (check: FailCheck, reason: string): Verdict => ({ status: 'failed', check, reason: control ? `${control} ${reason}` : reason });
  const isLead = entry.from === trust.lead;
  const identity = isLead ? undefined : identityOf(trust, entry.from);
  const sig = decodeSignature(entry[SIG_FIELD]);
  if (!sig) {
    if (entry[SIG_FIELD] !== undefined) return fail('bad-signature', `from "${entry.from}": its signature field is malformed`);
    if (isLead) return fail('unsigned', `claiming to be from the lead "${entry.from}" is not signed`);
    if (identity) return fail('unsigned', `from "${entry.from}" is not signed, and "${entry.from}" is a mailroom member that signs every message`);
    if (control) return fail('unsigned', `from "${entry.from}" is not signed (control messages must be)`);
    return { status: 'unverified' };
  }
  if (trust.keys.length === 0) return fail('no-lead-key', `from "${entry.from}" cannot be checked: this machine holds only an earlier release's HMAC team key; run \`mailroom team rekey\` where the lead runs`);
  const signed = { team: trust.team, from: entry.from, to, msgId: entry.msg_id ?? '', text: entry.text, summary: entry.summary };
  const leadKey = trust.keys.find((k) => k.keyId === sig.keyId);
  let signer: 'lead' | 'member';
  if (leadKey) {
    if (!isLead) return fail('bad-signature', `from "${entry.from}" is signed with the lead's key but not sent by the lead`);
    if (!verifyEntry(leadKey.publicKey, signed, sig)) return fail('bad-signature', `from "${entry.from}": its signature does not verify`);
    if (control && reader && leadKey !== currentLeadKey(trust)) return fail('retired-lead-key', `from "${entry.from}" is signed with a lead key retired by \`team rekey\``);
    signer = 'lead';
  } else {
    const cert = decodeCertificate(entry[CERT_FIELD]);
    if (!cert && identity && keyIdOf(identity.publicKey) === sig.keyId && verifyEntry(identity.publicKey, signed, sig)) {
      // A teammate spawned where the lead's key is not: its request to be endorsed is shown (unverified), all else withheld.
      if (isEndorsementRequest(entry.text)) return { status: 'unverified' };
      return fail('unendorsed', `from "${entry.from}" is signed by a key the lead has not endorsed yet ("${entry.from}" was spawned on a machine without the lead's key): run \`mailroom team endorse ${entry.from}\` on the lead's machine`);
    }
    if (!cert) return fail('unknown-key', `from "${entry.from}": signed by key ${sig.keyId}, which no trusted key endorses (no certificate)`);
    const endorser = trust.keys.find((k) => k.keyId === cert.leadKeyId);
    if (!endorser || !verifyCertificate(cert, trust.team, entry.from, endorser.publicKey)) return fail('bad-certificate', `from "${entry.from}": its certificate is not the lead's endorsement of "${entry.from}"`);
    if (!verifyEntry(cert.publicKey, signed, sig)) return fail('bad-signature', `from "${entry.from}": its signature does not verify`);
    if (reader && identity && sameIncarnation(identity, cert) && identity.publicKey !== cert.publicKey) return fail('replaced-key', `from "${entry.from}" is signed with a key the member no longer holds (re-keyed)`);
    if (reader && identity && cert.joinedAt < identity.joinedAt) return fail('replaced-key', `from "${entry.from}" is signed with the key of an earlier incarnation of "${entry.from}" (joined ${cert.joinedAt}; spawned anew at ${identity.joinedAt}), which no longer speaks for it`);
    // In history too, and after that later member left as well: an earlier incarnation was removed before the name joined again (its kept record replaced), so what it signed after that is not its own.
    const later = laterJoin(trust, entry.from, cert.joinedAt);
    if (later !== undefined && sig.at >= later) return fail(identity ? 'replaced-key' : 'revoked-key', `from "${entry.from}" was signed at ${isoOf(sig.at)} with the key of an earlier incarnation of "${entry.from}" (joined ${cert.joinedAt}), after the name joined the team again (${isoOf(later)}): it was removed before`);
    // Its removal's time: on its kept record, or carried by the record of a later member of the name (the gap between the removal and a re-spawn).
    const removedAt = revokedAt(trust, entry.from, cert.publicKey);
    if (removedAt !== undefined && sig.at > removedAt) return fail('revoked-key', `from "${entry.from}" was signed at ${isoOf(sig.at)} with the key of "${entry.from}" removed from the team at ${isoOf(removedAt)}: a removed member's key no longer speaks for it`);
    signer = 'member';
  }
  const tooLong = control ? expiryTooLong(sig, reader?.now) : undefined;
  if (tooLong) return fail('expiry-too-long', `from "${entry.from}" ${tooLong}`);
  if (control && reader) {
    const inc = reader.joinedAt;
    if (inc !== undefined && sig.incarnation !== inc) return fail('other-incarnation', `from "${entry.from}" was signed for another incarnation of "${reader.name}" (joined ${sig.incarnation ?? 'unknown'}, this one ${inc}): a replay`);
    if (inc !== undefined && sig.at < inc) return fail('older-than-incarnation', `from "${entry.from}" was signed before "${reader.name}" joined`);
    if (sig.expires === undefined || reader.now > sig.expires) return fail('expired', `from "${entry.from}" expired at ${sig.expires === undefined ? '(no expiry)' : isoOf(sig.expires)}`);
    if (reader.obeyed && reader.obeyed.joinedAt === inc && reader.obeyed.ids[sig.nonce] !== undefined) return fail('replayed', `from "${entry.from}" was obeyed before (nonce ${sig.nonce}): a replay`);
  }
  if (!control && reader?.seen && entry.read !== true) {
    if (reader.seen.ids[sig.nonce] !== undefined) return fail('replayed', `from "${entry.from}" was delivered to "${reader.name}" before (nonce ${sig.nonce}): a copy appended again, a replay`);
    if (sig.at <= reader.seen.floor) return fail('replayed', `from "${entry.from}" was signed at ${isoOf(sig.at)}, before the oldest message "${reader.name}"'s replay memory holds: it cannot be told from a replay`);
  }
  return { status: 'verified', signer, nonce: sig.nonce, expires: sig.expires, at: sig.at };
}

/**
 * Why a control message's expiry reaches too far (a clause for the reason), else undefined: more
 * than CONTROL_MAX_TTL_MS after its signing time (judged in history too), or — for a live reader
 * at `now` — more than that plus SIGNING_SKEW_MS after now (a signing time in the future).
 */
function expiryTooLong(sig: { at: number; expires?: number | undefined }, now: number | undefined): string | undefined {
  if (sig.expires === undefined) return undefined;
  const max = `${CONTROL_MAX_TTL_MS / 60_000} minutes`;
  if (sig.expires - sig.at > CONTROL_MAX_TTL_MS) return `claims to be valid until ${isoOf(sig.expires)}, more than ${max} after it was signed (${isoOf(sig.at)}): a control message lives at most ${max}`;
  if (now !== undefined && sig.expires > now + CONTROL_MAX_TTL_MS + SIGNING_SKEW_MS) return `claims to be valid until ${isoOf(sig.expires)}, more than ${max} (and ${SIGNING_SKEW_MS / 60_000} minutes of clock skew) from now: it claims to be signed in the future`;
  return undefined;
}

/**
 * When a member of that name holding the identity `publicKey` was removed from the team (epoch ms,
 * the store's clock): that key is revoked from then on. Read from its own kept record (marked
 * `removedAt`), or from the `revokedKeys` a later member's record of the name carries once the
 * name was spawned anew (protocol/member-record.ts); undefined when that key was never removed.
 */
function revokedAt(trust: Trust, name: string, publicKey: string): number | undefined {
  for (const r of trust.records) {
    if (r.name !== name) continue;
    if (r.removedAt !== undefined && r.identity?.publicKey === publicKey) return r.removedAt;
    const carried = r.revokedKeys?.find((k) => k.publicKey === publicKey);
    if (carried) return carried.removedAt;
  }
  return undefined;
}

/**
 * When the next mailroom member of `name` joined the team after the incarnation that joined at
 * `joinedAt` (epoch ms): the earliest later `joinedAt` among the records of that name (a current
 * member's or a kept one) and the earlier members their `revokedKeys` carry, else undefined. Names
 * are unique in a roster, so that incarnation was removed before then.
 */
function laterJoin(trust: Trust, name: string, joinedAt: number): number | undefined {
  const joins = trust.records.filter((r) => r.name === name).flatMap((r) => [r.joinedAt, ...(r.revokedKeys ?? []).map((k) => k.joinedAt)]);
  const later = joins.filter((j) => j > joinedAt);
  return later.length > 0 ? Math.min(...later) : undefined;
}

interface Identity {
  publicKey: string;
  joinedAt: number;
}

/** The identity a current member of that name holds (a re-endorsed certificate in the settings beats its record's). */
function identityOf(trust: Trust, name: string): Identity | undefined {
  const member = findMember(trust.config, name);
  if (!member) return undefined;
  const record = trust.records.find((r) => r.name === name && recordIsFor(r, member));
  const reissued = decodeCertificate(trust.settings.signing?.certs?.[name]);
  if (reissued && reissued.joinedAt === member.joinedAt) return { publicKey: reissued.publicKey, joinedAt: reissued.joinedAt };
  return record?.identity ? { publicKey: record.identity.publicKey, joinedAt: record.joinedAt } : undefined;
}

function sameIncarnation(identity: Identity, cert: Certificate): boolean {
  return identity.joinedAt === cert.joinedAt;
}
