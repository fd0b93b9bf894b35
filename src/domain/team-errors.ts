/**
 * The refusals about a whole team — TEAM_NOT_FOUND and TEAM_EXISTS — worded once for every store
 * backend. `location` is where the store keeps its teams as the user would recognise it: the
 * files backend's root directory, or "the Redis store at <url without its password>".
 */
import { MailroomError } from '../errors.js';
import { NAME_PATTERN } from './names.js';
import { closestMatch } from './suggest.js';

/**
 * TEAM_NOT_FOUND for `team`. `teams`, when the backend lists them cheaply (the files backend
 * does), are named so a mistyped name is plain to see, the one close to `team` first ("Did you
 * mean …?"); otherwise the message points at `mailroom team list`. The name is quoted as JSON;
 * `team create` is suggested only for a name it accepts ({@link NAME_PATTERN}).
 * `details`: `{ team, location, teams? }`.
 */
export function teamNotFound(team: string, location: string, teams?: readonly string[]): MailroomError {
  const known = teams === undefined ? 'List teams with `mailroom team list`.' : teams.length > 0 ? `Teams there: ${teams.join(', ')}.` : 'There are no teams there.';
  const suggestion = teams === undefined ? undefined : closestMatch(team, teams);
  const meant = suggestion === undefined ? '' : `Did you mean ${JSON.stringify(suggestion)}? `;
  const create = NAME_PATTERN.test(team) ? ` Create it with \`mailroom team create ${team}\`.` : '';
  return new MailroomError('TEAM_NOT_FOUND', `Team ${JSON.stringify(team)} not found in ${location}. ${meant}${known}${create}`, {
    details: { team, location, ...(teams !== undefined ? { teams: [...teams] } : {}) },
  });
}

/** TEAM_EXISTS for `team` (creating, importing or restoring it). `details`: `{ team }`. */
export function teamExists(team: string, location: string): MailroomError {
  return new MailroomError('TEAM_EXISTS', `Team "${team}" already exists in ${location}. Pick another name, or delete it first with \`mailroom team delete ${team}\`.`, {
    details: { team },
  });
}
