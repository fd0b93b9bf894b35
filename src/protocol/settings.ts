/**
 * Team settings: mailroom's team-wide rules, shared by every member and machine of the team
 * (docs/format.md "Team settings"). Claude Code has no such file and never reads it.
 *
 * - `policy`: who may do what (message whom, create, assign or delete tasks, stop members). A key
 *   that is absent is open, as today and as in Claude Code; the lead is never refused.
 * - `signing`: the team is signed (`team create --signed`): every message a mailroom member sends
 *   carries its Ed25519 signature; here only public keys (see {@link SigningSchema}).
 * - `approve`: side effects every teammate needs the lead's approval for (`commands`: task commands
 *   run by RunTaskCommand); a member record can add its own.
 * - `approvalTimeoutMs`: how long a teammate waits for the lead's answer to a permission request.
 * - `maxMessageBytes`: the largest message text (UTF-8 bytes) a send accepts (default
 *   {@link DEFAULT_MAX_MESSAGE_BYTES}).
 *
 * Unknown keys are kept (a later release may add some).
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** Version of the settings document; a reader refuses another (it would misread the rules). */
export const SETTINGS_VERSION = 1;

/** Side effects that can require the lead's approval. `commands`: RunTaskCommand runs a task's shell command. */
export const APPROVABLE = ['commands'] as const;

/** One of {@link APPROVABLE}. */
export type Approvable = (typeof APPROVABLE)[number];

/** A list of who may: member names, `*` (every member) or `@lead` (the lead, who may anyway). */
const Who = lazySchema(() => z.array(z.string()));

/**
 * Who may do what. Each key is one rule, reported by its name (`policy.createTasks`) when it
 * refuses. `message` maps a sender (or `*`, any sender without its own entry) to the recipients it
 * may message (`*`: anyone; `@lead`: the lead).
 */
export const TeamPolicySchema = lazySchema(() => z.looseObject({
  message: z.record(z.string(), Who).optional(),
  createTasks: Who.optional(),
  assignTasks: Who.optional(),
  deleteTasks: Who.optional(),
  stopMembers: Who.optional(),
}));

/** A team policy (see {@link TeamPolicySchema}). */
export type TeamPolicy = z.infer<typeof TeamPolicySchema>;

/** The rules a policy can hold, as named in refusals (`policy.<rule>`). */
export const POLICY_RULES = ['message', 'createTasks', 'assignTasks', 'deleteTasks', 'stopMembers'] as const;

/** One of {@link POLICY_RULES}. */
export type PolicyRule = (typeof POLICY_RULES)[number];

/** A lead key rotation as stored (src/protocol/signature.ts `Rotation`). */
const RotationSchema = lazySchema(() => z.object({ from: z.string(), publicKey: z.string(), at: z.number(), signature: z.string() }));

/**
 * How a signed team is signed (`team create --signed`, docs/approvals.md "Signed teams"): Ed25519,
 * one key pair per member, each made where it runs (private keys only in host stores, mode 0600).
 * Here only public information, none of which a reader trusts on its own: the lead's current public
 * key (`publicKey`, id `keyId`; a machine pins it when it joins and thereafter trusts only keys its
 * pin endorses), the `rotations` that led to it (each signed by the key before), members'
 * certificates re-endorsed by `team rekey` (`certs`, by name: `mailroom_cert` values), and `off`
 * once the lead signed the team off (`team unsign`). `hmac-sha256` is the earlier release's
 * one-key form (no `publicKey`): its machines obey no control message until `team rekey`.
 */
export const SigningSchema = lazySchema(() => z.looseObject({
  alg: z.enum(['ed25519', 'hmac-sha256']),
  /** Id of the lead's current key: first 16 hex digits of the SHA-256 of its raw public key. */
  keyId: z.string(),
  /** The lead's current public key (raw, base64url). */
  publicKey: z.string().optional(),
  /** When the current key was made (epoch ms). */
  since: z.number(),
  rotations: z.array(RotationSchema).optional(),
  certs: z.record(z.string(), z.string()).optional(),
  off: z.object({ keyId: z.string(), at: z.number(), signature: z.string() }).optional(),
}));

/** A team's signing information. */
export type Signing = z.infer<typeof SigningSchema>;

/** The settings document. */
export const TeamSettingsSchema = lazySchema(() => z.looseObject({
  v: z.literal(SETTINGS_VERSION),
  policy: TeamPolicySchema.optional(),
  signing: SigningSchema.optional(),
  approve: z.array(z.enum(APPROVABLE)).optional(),
  approvalTimeoutMs: z.number().int().positive().optional(),
  maxMessageBytes: z.number().int().min(1024).optional(),
}));

/** The largest message text a send accepts when the team sets no `maxMessageBytes` (bytes, UTF-8): 256 KiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024;

/** The smallest `maxMessageBytes` a team may set (bytes): 1 KiB. */
export const MIN_MAX_MESSAGE_BYTES = 1024;

/** A team's settings; `{v: 1}` means "as Claude Code": open, unsigned, nothing to approve. */
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;

/** The settings of a team that never set any. */
export function defaultSettings(): TeamSettings {
  return { v: SETTINGS_VERSION };
}

/**
 * A settings change: each key set to its new value, `null` removes it. Applied by
 * `applySettingsPatch` (src/domain/settings.ts) inside the store's transition, so a patch is
 * applied to the document as it is at that moment.
 *
 * Besides whole top-level keys, one policy rule can be patched alone, so two edits of different
 * rules made at the same time both survive: `policy.createTasks` (and the other top rules of
 * {@link POLICY_RULES}) and `policy.message.<sender>` (`policy.message.*`: every sender without its
 * own entry) set that rule's list, `null` removes it; a policy (or `message` map) left empty is removed.
 */
export type SettingsPatch = {
  [K in Exclude<keyof TeamSettings, 'v'>]?: TeamSettings[K] | null;
} & {
  [rule: `policy.${string}`]: string[] | null | undefined;
};
