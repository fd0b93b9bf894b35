/**
 * Whom this machine trusts in a signed team (docs/approvals.md "Signed teams"): the lead keys it
 * pinned (host store), never the shared settings alone. The pin is made when the team is created
 * here, or the first time this machine joins or reads a team whose settings name a lead key
 * (trust on first use); afterwards only rotations signed by the pinned key extend it, and only a
 * signing-off signed by the current pinned key makes the team open again. Deleting or rewriting
 * `signing` in the shared settings changes nothing a pinned machine believes.
 */
import { leadName } from '../../domain/roster.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { LeadPin } from '../../protocol/identity-files.js';
import type { MemberRecord } from '../../protocol/member-record.js';
import type { TeamSettings } from '../../protocol/settings.js';
import { keyIdOf, verifyRotation, verifySigningOff } from '../../protocol/signature.js';
import { hostOf, nowOf, teamOf, type TeamOptions } from '../context.js';

/** What a machine trusts about one team, read once per batch of messages. */
export interface Trust {
  team: string;
  /** The team is signed on this machine: it holds a lead pin (not signed off) or an earlier release's team key. */
  signed: boolean;
  /** The lead's member name. */
  lead: string;
  /** Trusted lead keys, oldest first; the last is current. Empty: only an HMAC key of an earlier release is held. */
  keys: LeadPin['keys'];
  settings: TeamSettings;
  config: TeamConfig;
  /** mailroom's member records (public identities). */
  records: readonly MemberRecord[];
}

/**
 * Reads what this machine trusts about `options.team` (with the config and settings its caller
 * already read in this step, when given), pinning the lead key named in the settings
 * when this machine has no pin yet (`pin: false` to never pin), and extending the pin by verified
 * rotations. @throws KEY_PERMISSIONS, FILE_CORRUPT (identity files), TEAM_NOT_FOUND
 */
export async function loadTrust(options: TeamOptions, known: { config?: TeamConfig; settings?: TeamSettings | undefined; pin?: boolean } = {}): Promise<Trust> {
  const store = teamOf(options);
  const host = hostOf(options);
  const [config, settings, stored] = await Promise.all([known.config ?? store.readConfig(options.team), known.settings ?? store.readSettings(options.team), host.readLeadPin(options.team)]);
  let pin = stored;
  const lead = pin?.lead ?? leadName(config);
  const signing = settings.signing;
  if (!pin && known.pin !== false && signing?.alg === 'ed25519' && signing.publicKey !== undefined && keyIdOf(signing.publicKey) === signing.keyId) {
    pin = { v: 1, team: options.team, lead, keys: [{ keyId: signing.keyId, publicKey: signing.publicKey, since: signing.since }], pinnedAt: nowOf(options) };
    await host.writeLeadPin(pin);
  }
  if (pin) {
    const extended = extendPin(pin, settings);
    if (extended !== pin) await host.writeLeadPin(extended);
    const head = extended.keys[extended.keys.length - 1]!;
    const off = signing?.off;
    const signedOff = off !== undefined && off.keyId === head.keyId && off.at >= head.since && verifySigningOff(off, options.team, head.publicKey);
    const records = signedOff ? [] : await store.readMemberRecords(options.team);
    return { team: options.team, signed: !signedOff, lead, keys: extended.keys, settings, config, records };
  }
  const legacy = await host.readTeamKey(options.team).catch(() => undefined);
  return { team: options.team, signed: legacy !== undefined, lead, keys: [], settings, config, records: [] };
}

/** `pin` extended by the settings' rotations that its current key (then each next one) signed; the same object when none. */
export function extendPin(pin: LeadPin, settings: TeamSettings): LeadPin {
  const rotations = settings.signing?.rotations ?? [];
  let keys = pin.keys;
  for (;;) {
    const head = keys[keys.length - 1]!;
    const next = rotations.find((r) => r.from === head.keyId && verifyRotation(r, pin.team, head.publicKey));
    if (!next || keys.some((k) => k.publicKey === next.publicKey)) break;
    keys = [...keys, { keyId: keyIdOf(next.publicKey), publicKey: next.publicKey, since: next.at }];
  }
  return keys === pin.keys ? pin : { ...pin, keys };
}

/** The current lead key of a trust (undefined: none trusted). */
export function currentLeadKey(trust: Trust): LeadPin['keys'][number] | undefined {
  return trust.keys[trust.keys.length - 1];
}
