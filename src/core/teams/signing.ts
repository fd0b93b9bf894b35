/**
 * Signed teams (`team create --signed`, docs/approvals.md "Signed teams"): the lead's control
 * messages (shutdown_request, task_assignment, the approval answers) carry an HMAC signature with
 * the team's key, and mailroom teammates ignore — and report — one without a valid signature, so a
 * `shutdown_request` appended to an inbox file by hand stops nobody.
 */
import { MailroomError } from '../../errors.js';
import { leadName } from '../../domain/roster.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { SIGNED_TYPES, keyIdOf, signMessage, verifyMessage, type SignatureCheck } from '../../protocol/signature.js';
import { parseMessageText } from '../../protocol/structured.js';
import type { Signing } from '../../protocol/settings.js';
import { hostOf, nowOf, opOf, teamOf, type TeamOptions } from '../context.js';

/**
 * Makes the team signed: a new key in this machine's host store (mode 0600) and `signing` in the
 * team's settings. @returns the signing settings. @throws TEAM_EXISTS (a key exists), TEAM_NOT_FOUND
 */
export async function enableSigning(options: TeamOptions): Promise<Signing> {
  await teamOf(options).readConfig(options.team);
  const key = await hostOf(options).createTeamKey(options.team);
  const signing: Signing = { alg: 'hmac-sha256', keyId: keyIdOf(key), since: nowOf(options) };
  await teamOf(options).updateSettings(options.team, { signing }, opOf(options));
  return signing;
}

/** The team's key when it is signed (undefined: an open team). @throws NOT_PERMITTED when signed and this machine lacks the key */
async function keyOf(options: TeamOptions, signing: Signing | undefined): Promise<Buffer | undefined> {
  if (!signing) return undefined;
  const key = await hostOf(options).readTeamKey(options.team);
  if (!key || keyIdOf(key) !== signing.keyId) {
    throw new MailroomError('NOT_PERMITTED', `Team "${options.team}" is signed (key ${signing.keyId}) and this machine has ${key ? 'another key' : 'no key'}: copy mailroom/keys/${options.team}.key from the machine that created the team (mode 0600). (rule: signature)`, {
      details: { rule: 'signature', keyId: signing.keyId },
    });
  }
  return key;
}

/**
 * Signs `message` when the team is signed, its type is a lead-only control message and the lead
 * sends it; otherwise returns it unchanged.
 */
export async function signIfControl<M extends { type: string } & Record<string, unknown>>(options: TeamOptions, message: M, from: string, to: string): Promise<M> {
  if (!SIGNED_TYPES.includes(message.type)) return message;
  const store = teamOf(options);
  const [settings, config] = await Promise.all([store.readSettings(options.team), store.readConfig(options.team)]);
  if (!settings.signing || from !== leadName(config)) return message;
  const key = await keyOf(options, settings.signing);
  return key ? signMessage(message, key, options.team, to) : message;
}

/** A control message a teammate must not obey. */
export interface RefusedControl {
  entry: InboxEntry;
  type: string;
  check: Exclude<SignatureCheck, 'valid'>;
}

/**
 * A reader of `to`'s inbox in a signed team: which of `entries` are control messages without a
 * valid signature (to be ignored and reported). An open team refuses none.
 */
export class ControlGuard {
  private key: Buffer | undefined | null = null;

  constructor(
    private readonly options: TeamOptions,
    private readonly to: string,
  ) {}

  /** The refused entries among `entries` (none in an open team). */
  async refused(entries: readonly InboxEntry[]): Promise<RefusedControl[]> {
    const controls = entries.flatMap((entry) => {
      const p = parseMessageText(entry.text);
      return p.kind === 'structured' && SIGNED_TYPES.includes(p.message.type) ? [{ entry, message: p.message as unknown as Record<string, unknown>, type: p.message.type }] : [];
    });
    if (controls.length === 0) return [];
    const settings = await teamOf(this.options).readSettings(this.options.team);
    if (!settings.signing) return [];
    if (this.key === null) this.key = await keyOf(this.options, settings.signing);
    const key = this.key!;
    return controls.flatMap((c) => {
      const check = verifyMessage(c.message, key, this.options.team, this.to);
      return check === 'valid' ? [] : [{ entry: c.entry, type: c.type, check }];
    });
  }
}
