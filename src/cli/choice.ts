/**
 * The error for an option value outside its choices, one wording for every option: yargs'
 * `choices` (`--wait raed`) and the verbs' own checks (`--status done`). Names the value as typed,
 * the choices, and the one meant when a spelling or a common word points to it.
 */
import { MailroomError } from '../errors.js';
import { closestMatch } from '../domain/suggest.js';

/** Words people use for a task status → the status meant (`done` → `completed`). */
export const TASK_STATUS_WORDS: Readonly<Record<string, string>> = {
  done: 'completed', complete: 'completed', finished: 'completed', closed: 'completed',
  todo: 'pending', open: 'pending', new: 'pending', ready: 'pending',
  started: 'in_progress', running: 'in_progress', doing: 'in_progress', active: 'in_progress', claimed: 'in_progress',
  removed: 'deleted',
};

/**
 * `--wait "raed": use one of delivered, read, replied. Did you mean read?`; a bare option (no
 * value): `--wait needs a value: use one of delivered, read, replied.`
 * @param option the option as typed on the command line, e.g. `--wait`
 * @param words common words → the choice they mean (own entries only)
 */
export function choiceMessage(option: string, value: string, choices: readonly string[], words: Readonly<Record<string, string>> = {}): string {
  // A bare option (`--wait --timeout 5s`): yargs gives it the empty string.
  if (value === '') return `${option} needs a value: use one of ${choices.join(', ')}.`;
  const word = Object.hasOwn(words, value.toLowerCase()) ? words[value.toLowerCase()] : undefined;
  const meant = word !== undefined && choices.includes(word) ? word : closestMatch(value, choices);
  const hint = meant === undefined ? '' : ` Did you mean ${meant}?`;
  return `${option} ${JSON.stringify(value)}: use one of ${choices.join(', ')}.${hint}`;
}

/**
 * {@link choiceMessage} as the error to throw.
 * @returns INVALID_ARGUMENT (exit 2), `details` naming the option, the value and the choice meant
 */
export function choiceError(option: string, value: string, choices: readonly string[], words?: Readonly<Record<string, string>>): MailroomError {
  return new MailroomError('INVALID_ARGUMENT', choiceMessage(option, value, choices, words), { details: { option, value, choices: [...choices] } });
}

/**
 * yargs' refusal of values outside `choices` (`Invalid values:` then one
 * `Argument: wait, Given: "raed", Choices: "delivered", "read", "replied"` line per option) as
 * {@link choiceError}'s error (the first value refused in `details`); undefined for any other message.
 */
export function yargsChoicesError(message: string): MailroomError | undefined {
  if (!message.startsWith('Invalid values:')) return undefined;
  const refused: { option: string; value: string; choices: string[] }[] = [];
  for (const [, name, given, choices] of message.matchAll(/Argument: (\S+), Given: (.*), Choices: (.*)$/gm)) {
    const allowed = listed(choices as string).map(String);
    for (const value of listed(given as string).map(String)) if (!allowed.includes(value)) refused.push({ option: `--${name as string}`, value, choices: allowed });
  }
  const [first] = refused;
  if (first === undefined) return undefined;
  const text = refused.map((r) => choiceMessage(r.option, r.value, r.choices)).join(' ');
  return new MailroomError('INVALID_ARGUMENT', text, { details: { ...first } });
}

/** yargs' stringifiedValues (JSON values joined with ", ") back to the values. */
function listed(text: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(`[${text}]`);
    return Array.isArray(parsed) ? parsed : [text];
  } catch {
    return [text];
  }
}
