/**
 * Name rules and Claude Code's two path sanitisers (reference §1).
 *
 * New team and agent names must match {@link NAME_PATTERN}; both sanitisers leave such names
 * unchanged, so a valid name maps to exactly one directory and one inbox file. Names Claude Code
 * created with other characters are still read, by computing both paths.
 */
import { createHash } from 'node:crypto';
import { MailroomError } from '../errors.js';

/** The form every new team and agent name must have: lowercase ASCII letters, digits and `-`, 1–64 chars, not starting with `-`. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The lead's member name, fixed by Claude Code. */
export const LEAD_NAME = 'team-lead';

/** Names reserved as senders by Claude Code 2.1.332: never allowed for a new teammate. */
export const RESERVED_NAMES: readonly string[] = [LEAD_NAME, 'user', 'system'];

/** Sanitiser for team directories (config.json): every char outside `[a-zA-Z0-9]` → `-`, then lowercase. */
export function teamDirName(name: string): string {
  return name.replace(/[^a-zA-Z0-9]/g, '-').toLowerCase();
}

/** Sanitiser for inbox dirs, inbox files, task list ids: every char outside `[a-zA-Z0-9_-]` → `-`, case kept. */
export function pathPart(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '-');
}

/**
 * A team directory Claude Code 2.1.332 is removing: at the end of a session it renames
 * `teams/<teamDir>` to `teams/<teamDir>.deleted-<uuid>` and then removes that (2.1.332 snapshot
 * 5-cleanup-tombstone). The client itself recognises such tombstones by `\.deleted-<uuid>$`; so
 * does this pattern. No team name can produce one: the team-directory sanitiser turns `.` into `-`.
 */
export const TOMBSTONE_PATTERN = /\.deleted-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The team directory a tombstone directory name stands for (`session-0e1bac49.deleted-eb15…` →
 * `session-0e1bac49`), or undefined when `dirName` is no tombstone ({@link TOMBSTONE_PATTERN}).
 */
export function tombstoneOf(dirName: string): string | undefined {
  const m = TOMBSTONE_PATTERN.exec(dirName);
  return m ? dirName.slice(0, m.index) : undefined;
}

/** Task list id of an explicit team: its name through the lowercasing sanitiser (reference §1). */
export function taskListId(team: string): string {
  return pathPart(teamDirName(team));
}

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
    throw new MailroomError('INVALID_NAME', `Invalid ${kind} name ${JSON.stringify(name)}: ${FORM}. Try "${suggestion}".`, {
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
