/**
 * Capabilities (issue 11 item 2): what a member declares it can do (`csv`, `review`), kept in its
 * member record (docs/format.md "Member records"), and what a task requires (`metadata.requires`,
 * a key Claude Code keeps and ignores). Only a member with every required capability may claim
 * such a task (refusal reason `missing_capability`). Pure rules, shared by both store backends
 * (the Redis claim script mirrors {@link missingCapabilities}) and core (routing).
 */
import { MailroomError } from '../errors.js';
import type { Task } from '../protocol/task.js';

/** A capability name: 1–64 of lowercase letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export const CAPABILITY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** The task metadata key that lists a task's required capabilities. */
export const REQUIRES_KEY = 'requires';

/**
 * Capabilities as given on a command line or in a file: names, or comma-separated lists of names
 * (`["csv,review", "ops"]`), trimmed, deduplicated, in first-seen order.
 * @throws INVALID_ARGUMENT naming a name outside {@link CAPABILITY_PATTERN}
 */
export function parseCapabilities(values: readonly string[] | string | undefined, what = '--capability'): string[] {
  const list = values === undefined ? [] : typeof values === 'string' ? [values] : values;
  const out: string[] = [];
  for (const name of list.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '')) {
    if (!CAPABILITY_PATTERN.test(name)) {
      throw new MailroomError('INVALID_ARGUMENT', `${what} ${JSON.stringify(name)} is not a capability name: use 1–64 lowercase letters, digits, ".", "_" or "-" (e.g. review, csv).`, { details: { capability: name } });
    }
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** The capabilities a task requires (`metadata.requires`: a list of names, or one name); malformed entries are ignored. */
export function taskRequires(task: Pick<Task, 'metadata'>): string[] {
  const value = task.metadata?.[REQUIRES_KEY];
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return [...new Set(list.filter((v): v is string => typeof v === 'string' && v !== ''))];
}

/** The required capabilities `have` lacks, in the order required. */
export function missingCapabilities(required: readonly string[], have: readonly string[]): string[] {
  return required.filter((c) => !have.includes(c));
}

/** The capabilities a stored member record declares (`capabilities`; anything else reads as none). */
export function capabilitiesOf(record: { capabilities?: unknown } | undefined): string[] {
  const value = record?.capabilities;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
