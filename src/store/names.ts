/**
 * Name rules and Claude Code's two path sanitisers (reference §1).
 *
 * New team and agent names must match {@link NAME_PATTERN}; both sanitisers leave such names
 * unchanged, so a valid name maps to exactly one directory and one inbox file. Names Claude Code
 * created with other characters are still read, by computing both paths.
 */
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

/** Task list id of an explicit team: its name through the lowercasing sanitiser (reference §1). */
export function taskListId(team: string): string {
  return pathPart(teamDirName(team));
}

/**
 * Suggests a valid name close to `input` (NFKD, accents dropped, lowercase, runs of other
 * characters → `-`, trimmed to 64), or `undefined` when nothing usable is left.
 */
export function suggestName(input: string): string | undefined {
  const ascii = input.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const slug = ascii
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug !== '' && NAME_PATTERN.test(slug) ? slug : undefined;
}

/**
 * Throws INVALID_NAME unless `name` is a valid new name. `kind` ("team" or "agent") is used in the
 * message; agents may additionally not take a reserved name unless `allowLead` is set.
 */
export function assertValidName(name: string, kind: 'team' | 'agent', options: { allowLead?: boolean } = {}): void {
  if (!NAME_PATTERN.test(name)) {
    const suggestion = suggestName(name);
    const hint = suggestion !== undefined && suggestion !== name ? ` Try "${suggestion}".` : '';
    throw new MailroomError(
      'INVALID_NAME',
      `Invalid ${kind} name ${JSON.stringify(name)}: names must match ${NAME_PATTERN.source} ` +
        `(1–64 lowercase ASCII letters, digits or "-", starting with a letter or digit).${hint}`,
      { details: { name, kind, pattern: NAME_PATTERN.source, ...(suggestion ? { suggestion } : {}) } },
    );
  }
  if (kind === 'agent' && !options.allowLead && RESERVED_NAMES.includes(name)) {
    throw new MailroomError(
      'INVALID_NAME',
      `Invalid agent name "${name}": "team-lead", "user" and "system" are reserved. Pick another name, e.g. "${name}-2".`,
      { details: { name, kind, reserved: RESERVED_NAMES } },
    );
  }
}
