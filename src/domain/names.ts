/**
 * mailroom's name rules for new teams and members (docs/format.md §7): the pattern, the names
 * Claude Code reserves, the INVALID_NAME error with a suggestion. Pure rules, shared by every
 * store backend and by core. Claude Code's path sanitisers (how a name becomes a file name) are
 * the filesystem store's business and stay in src/store/fs/names.ts.
 */
import { createHash } from 'node:crypto';
import { MailroomError } from '../errors.js';

/** The form every new team and agent name must have: lowercase ASCII letters, digits and `-`, 1–64 chars, not starting with `-`. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The lead's member name, fixed by Claude Code. */
export const LEAD_NAME = 'team-lead';

/** Names reserved as senders by Claude Code 2.1.332: never allowed for a new teammate. */
export const RESERVED_NAMES: readonly string[] = [LEAD_NAME, 'user', 'system'];

/**
 * Suggests a valid name close to `input`: NFKD, accents dropped, lowercase, runs of other characters
 * → `-`, trimmed to 64. When nothing ASCII is left (`研究员`, `..`) it falls back to
 * `name-<6 hex digits of the input's SHA-256>`, so distinct inputs get distinct suggestions. A
 * suggestion in `taken` (compared case-insensitively) gets `-2`, `-3`, … appended.
 * @returns a name that matches {@link NAME_PATTERN} and is not in `taken`.
 */
export function suggestName(input: string, taken: readonly string[] = []): string {
  const ascii = input.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const slug = trimName(ascii.toLowerCase().replace(/[^a-z0-9]+/g, '-'), 64);
  const base = slug !== '' ? slug : `name-${createHash('sha256').update(input).digest('hex').slice(0, 6)}`;
  const used = new Set(taken.map((t) => t.toLowerCase()));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${trimName(base, 64 - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Drops leading/trailing `-` and cuts to `max` characters (then drops a trailing `-` again). */
function trimName(slug: string, max: number): string {
  return slug.replace(/^-+/, '').slice(0, max).replace(/-+$/, '');
}

/** Options of {@link assertValidName}. */
export interface NameCheckOptions {
  /** Allow `team-lead` (and the other reserved names) for an agent: only when creating the lead. */
  allowLead?: boolean;
  /** Names already in use; the suggestion in the error avoids them (case-insensitively). */
  taken?: readonly string[];
}

const FORM = `names must match ${NAME_PATTERN.source} (1–64 lowercase ASCII letters, digits or "-", starting with a letter or digit)`;

/**
 * Throws INVALID_NAME unless `name` is a valid new name. `kind` ("team" or "agent") is used in the
 * message; agents may additionally not take a reserved name unless `allowLead` is set. Every error
 * states the allowed form and suggests a valid, free name (`details.suggestion`).
 * @throws MailroomError INVALID_NAME
 */
export function assertValidName(name: string, kind: 'team' | 'agent', options: NameCheckOptions = {}): void {
  const reservedHere = kind === 'agent' && !options.allowLead ? RESERVED_NAMES : [];
  const taken = [...(options.taken ?? []), ...reservedHere];
  if (!NAME_PATTERN.test(name)) {
    const suggestion = suggestName(name, taken);
    const plain = suggestName(name);
    // Why not the plain spelling (`Research` → "research-2"): say it is taken.
    const why = plain === suggestion ? '' : reservedHere.includes(plain) ? ` ("${plain}" is reserved)` : ` (${kind} "${plain}" exists already)`;
    throw new MailroomError('INVALID_NAME', `Invalid ${kind} name ${JSON.stringify(name)}: ${FORM}. Try "${suggestion}"${why}.`, {
      details: { name, kind, pattern: NAME_PATTERN.source, suggestion },
    });
  }
  if (reservedHere.includes(name)) {
    const suggestion = suggestName(name, taken);
    throw new MailroomError(
      'INVALID_NAME',
      `Invalid agent name "${name}": "team-lead", "user" and "system" are reserved for Claude Code's lead and system senders; ` +
        `new agent ${FORM}, other than those three. Try "${suggestion}".`,
      { details: { name, kind, pattern: NAME_PATTERN.source, reserved: RESERVED_NAMES, suggestion } },
    );
  }
}
