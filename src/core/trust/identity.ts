/**
 * Member identities of a signed team (docs/approvals.md "Signed teams"): the lead's key pair made
 * at `team create --signed`, each member's made where it is spawned and endorsed by the lead's key,
 * `team rekey` (a new lead key, every member re-endorsed) and `team unsign` (signing off, signed).
 * Private keys go to this machine's host store only (mode 0600), public ones into shared state.
 */
import { MailroomError } from '../../errors.js';
import { leadName } from '../../domain/roster.js';
import type { StoredKey } from '../../protocol/identity-files.js';
import type { MemberIdentity } from '../../protocol/member-record.js';
import type { Signing } from '../../protocol/settings.js';
import { decodeCertificate, encodeCertificate, keyIdOf, makeCertificate, makeRotation, makeSigningOff, newKeyPair, type KeyPair } from '../../protocol/signature.js';
import { hostOf, nowOf, opOf, teamOf, type TeamOptions } from '../context.js';
import { currentLeadKey, loadTrust } from './trust.js';

/**
 * Makes the team signed: the lead's key pair in this machine's host store, this machine's pin of
 * its public key, and `signing` (public key only) in the team's settings. @returns the signing
 * settings. @throws TEAM_EXISTS (this machine already pins a lead key of that team name), TEAM_NOT_FOUND
 */
export async function enableSigning(options: TeamOptions): Promise<Signing> {
  const config = await teamOf(options).readConfig(options.team);
  const host = hostOf(options);
  if (await host.readLeadPin(options.team)) throw new MailroomError('TEAM_EXISTS', `This machine already holds identity files of a signed team "${options.team}" (${host.location}/mailroom/keys/${options.team}/): move that directory away first.`, { details: { team: options.team } });
  const lead = leadName(config);
  const pair = newKeyPair();
  const since = nowOf(options);
  const leadMember = config.members.find((m) => m.name === lead);
  await host.writeMemberKey({ v: 1, team: options.team, name: lead, joinedAt: leadMember?.joinedAt ?? since, publicKey: pair.publicKey, privateKey: pair.privateKey });
  const keyId = keyIdOf(pair.publicKey);
  await host.writeLeadPin({ v: 1, team: options.team, lead, keys: [{ keyId, publicKey: pair.publicKey, since }], pinnedAt: since });
  const signing: Signing = { alg: 'ed25519', keyId, publicKey: pair.publicKey, since };
  await teamOf(options).updateSettings(options.team, { signing }, opOf(options));
  return signing;
}

/** The lead's key pair on this machine when it is the current pinned one, else undefined. */
async function leadPair(options: TeamOptions): Promise<KeyPair | undefined> {
  const trust = await loadTrust(options);
  const head = currentLeadKey(trust);
  if (!trust.signed || !head) return undefined;
  const key = await hostOf(options).readMemberKey(options.team, trust.lead);
  return key && keyIdOf(key.publicKey) === head.keyId ? key : undefined;
}

/**
 * In a signed team (on this machine): makes `name`'s key pair for the incarnation `joinedAt`,
 * stores it here (mode 0600) with the lead's certificate when this machine holds the lead's key,
 * and returns the public identity for its member record. Undefined in an open team.
 */
export async function makeIdentity(options: TeamOptions, name: string, joinedAt: number): Promise<MemberIdentity | undefined> {
  const trust = await loadTrust(options);
  if (!trust.signed || trust.keys.length === 0) return undefined;
  const lead = await leadPair(options);
  const pair = newKeyPair();
  const cert = lead ? encodeCertificate(makeCertificate(lead, options.team, name, joinedAt, pair.publicKey)) : undefined;
  const stored: StoredKey = { v: 1, team: options.team, name, joinedAt, publicKey: pair.publicKey, privateKey: pair.privateKey };
  if (cert) stored.cert = cert;
  await hostOf(options).writeMemberKey(stored);
  return { publicKey: pair.publicKey, keyId: keyIdOf(pair.publicKey), ...(cert ? { cert } : {}) };
}

/** What {@link endorseMember} did. */
export interface Endorsed {
  member: string;
  /** Id of the member's public key now endorsed. */
  keyId: string;
  /** Id of the lead key that endorsed it. */
  leadKeyId: string;
}

/**
 * `team endorse <member>`: the lead's certificate over the public key in `member`'s current member
 * record (made on another machine, pending), written to the team's settings (`signing.certs`),
 * where the teammate's signer and every reader find it. Needs the lead's private key on this machine.
 * @throws KEY_MISSING (the lead's key is not here), MEMBER_NOT_FOUND (no such teammate with a key), NOT_SUPPORTED (an open team)
 */
export async function endorseMember(options: TeamOptions & { member: string }): Promise<Endorsed> {
  const trust = await loadTrust(options);
  if (!trust.signed) throw new MailroomError('NOT_SUPPORTED', `Team "${options.team}" is not signed on this machine: nothing to endorse.`, { details: { team: options.team } });
  const lead = await leadPair(options);
  if (!lead) throw new MailroomError('KEY_MISSING', `Endorsing a teammate is the lead's signed act, and the lead's private key of team "${options.team}" is not on this machine: run \`mailroom team endorse ${options.member}\` where the team was created.`, { details: { team: options.team, member: trust.lead } });
  const member = trust.config.members.find((m) => m.name === options.member);
  const record = member ? trust.records.find((r) => r.name === member.name && r.agentId === member.agentId && r.joinedAt === member.joinedAt) : undefined;
  const publicKey = record?.identity?.publicKey;
  if (!member || member.name === trust.lead || publicKey === undefined) throw new MailroomError('MEMBER_NOT_FOUND', `"${options.member}" is not a teammate of team "${options.team}" with a key to endorse (see \`mailroom team show\`).`, { details: { team: options.team, member: options.member } });
  const cert = encodeCertificate(makeCertificate(lead, options.team, member.name, member.joinedAt ?? 0, publicKey));
  const head = currentLeadKey(trust)!;
  const signing = trust.settings.signing ?? { alg: 'ed25519' as const, keyId: head.keyId, publicKey: head.publicKey, since: head.since };
  await teamOf(options).updateSettings(options.team, { signing: { ...signing, certs: { ...(signing.certs ?? {}), [member.name]: cert } } }, opOf(options));
  return { member: member.name, keyId: keyIdOf(publicKey), leadKeyId: keyIdOf(lead.publicKey) };
}

/** What {@link rekeyTeam} did. */
export interface Rekeyed {
  keyId: string;
  previousKeyId: string | undefined;
  /** Members re-endorsed by the new key. */
  endorsed: string[];
  /** With `member`: its new key's id. */
  memberKeyId?: string;
}

/**
 * `team rekey`: a new lead key pair, handed over by the old key (a rotation in the settings that
 * every pinned machine follows), and every member with an identity re-endorsed by it (`certs`).
 * With `member`: instead of a new lead key, a new key pair for that member, made here (it must run
 * on this machine), endorsed by the current lead key. Needs the lead's private key on this machine.
 * A team of an earlier release (HMAC key) gets its first lead key pair here.
 * @throws KEY_MISSING (the lead's key is not here), MEMBER_NOT_FOUND, NOT_SUPPORTED (an open team)
 */
export async function rekeyTeam(options: TeamOptions & { member?: string }): Promise<Rekeyed> {
  const store = teamOf(options);
  const host = hostOf(options);
  const trust = await loadTrust(options);
  if (!trust.signed) throw new MailroomError('NOT_SUPPORTED', `Team "${options.team}" is not signed on this machine: nothing to re-key (sign a team at \`mailroom team create --signed\`).`, { details: { team: options.team } });
  const head = currentLeadKey(trust);
  const old = await leadPair(options);
  if (head && !old) throw new MailroomError('KEY_MISSING', `The lead's private key of team "${options.team}" is not on this machine (${host.location}/mailroom/keys/${options.team}/${trust.lead}.key.json): run \`mailroom team rekey\` where the team was created.`, { details: { team: options.team, member: trust.lead } });
  const now = nowOf(options);
  const signing = trust.settings.signing ?? { alg: 'ed25519' as const, keyId: head?.keyId ?? '', since: now };
  const certs: Record<string, string> = { ...(signing.certs ?? {}) };
  if (options.member !== undefined) {
    const member = trust.config.members.find((m) => m.name === options.member);
    if (!member || member.name === trust.lead || !old) throw new MailroomError('MEMBER_NOT_FOUND', `"${options.member}" is not a teammate of team "${options.team}" that can be re-keyed here.`, { details: { team: options.team, member: options.member } });
    const pair = newKeyPair();
    const joinedAt = member.joinedAt ?? 0;
    const cert = encodeCertificate(makeCertificate(old, options.team, member.name, joinedAt, pair.publicKey));
    await host.writeMemberKey({ v: 1, team: options.team, name: member.name, joinedAt, publicKey: pair.publicKey, privateKey: pair.privateKey, cert });
    certs[member.name] = cert;
    await store.updateSettings(options.team, { signing: { ...signing, certs } }, opOf(options));
    return { keyId: head!.keyId, previousKeyId: head!.keyId, endorsed: [member.name], memberKeyId: keyIdOf(pair.publicKey) };
  }
  const pair = newKeyPair();
  const keyId = keyIdOf(pair.publicKey);
  const leadMember = trust.config.members.find((m) => m.name === trust.lead);
  await host.writeMemberKey({ v: 1, team: options.team, name: trust.lead, joinedAt: leadMember?.joinedAt ?? now, publicKey: pair.publicKey, privateKey: pair.privateKey });
  const rotations = [...(signing.rotations ?? [])];
  if (old) rotations.push(makeRotation(old, options.team, pair.publicKey, now));
  const endorsed: string[] = [];
  for (const member of trust.config.members) {
    const record = trust.records.find((r) => r.name === member.name && r.agentId === member.agentId && r.joinedAt === member.joinedAt);
    const reissued = decodeCertificate(certs[member.name]);
    const publicKey = reissued && reissued.joinedAt === member.joinedAt ? reissued.publicKey : record?.identity?.publicKey;
    if (member.name === trust.lead || publicKey === undefined) continue;
    certs[member.name] = encodeCertificate(makeCertificate(pair, options.team, member.name, member.joinedAt ?? 0, publicKey));
    endorsed.push(member.name);
  }
  const keys = head ? [...trust.keys, { keyId, publicKey: pair.publicKey, since: now }] : [{ keyId, publicKey: pair.publicKey, since: now }];
  await host.writeLeadPin({ v: 1, team: options.team, lead: trust.lead, keys, pinnedAt: now });
  const next: Signing = { ...signing, alg: 'ed25519', keyId, publicKey: pair.publicKey, since: now, rotations, certs };
  delete next.off;
  await store.updateSettings(options.team, { signing: next }, opOf(options));
  return { keyId, previousKeyId: head?.keyId, endorsed };
}

/**
 * `team unsign`: the lead signs the team off (a statement by its current key in the settings);
 * every machine that pins that key treats the team as open from then on. Deleting `signing` from
 * the shared settings does not do this. @throws KEY_MISSING (the lead's key is not here), NOT_SUPPORTED (not signed)
 */
export async function unsignTeam(options: TeamOptions): Promise<{ keyId: string; at: number }> {
  const trust = await loadTrust(options);
  if (!trust.signed) throw new MailroomError('NOT_SUPPORTED', `Team "${options.team}" is not signed on this machine.`, { details: { team: options.team } });
  const lead = await leadPair(options);
  const head = currentLeadKey(trust);
  if (!lead || !head) throw new MailroomError('KEY_MISSING', `Signing team "${options.team}" off is the lead's signed act, and the lead's private key is not on this machine: run \`mailroom team unsign\` where the team was created.`, { details: { team: options.team, member: trust.lead } });
  const off = makeSigningOff(lead, options.team, nowOf(options));
  const signing = trust.settings.signing ?? { alg: 'ed25519' as const, keyId: head.keyId, publicKey: head.publicKey, since: head.since };
  await teamOf(options).updateSettings(options.team, { signing: { ...signing, off } }, opOf(options));
  return { keyId: off.keyId, at: off.at };
}
