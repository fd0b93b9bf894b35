/**
 * A msg_id given by its prefix (`mailroom message show 736b4163`), as git takes a commit's: at least
 * {@link MIN_MSG_ID_PREFIX} characters, matching one message among the team's inboxes and dead
 * letters. Callers match the whole id first, so an id that is another's prefix is still found.
 */
import { MailroomError } from '../../errors.js';
import type { TeamStore } from '../../store/team-store.js';

/** The shortest msg_id prefix looked up (characters). */
export const MIN_MSG_ID_PREFIX = 6;

/**
 * The whole msg_id of the one message (inbox entry or dead letter) of `team` whose id starts with
 * `prefix`; undefined when none does.
 * @throws INVALID_ARGUMENT (`prefix` under {@link MIN_MSG_ID_PREFIX} characters), MESSAGE_AMBIGUOUS
 * (several messages start with it: `details.candidates`, each msg_id, from, to)
 */
export async function idOfPrefix(store: TeamStore, team: string, prefix: string): Promise<string | undefined> {
  if (prefix.length < MIN_MSG_ID_PREFIX) {
    throw new MailroomError('INVALID_ARGUMENT', `msg_id ${JSON.stringify(prefix)} is too short to look up: give the whole msg_id, or at least its first ${MIN_MSG_ID_PREFIX} characters (\`mailroom inbox <member> --status\` lists them).`, {
      details: { team, msg_id: prefix, minPrefix: MIN_MSG_ID_PREFIX },
    });
  }
  const candidates = await messagesStartingWith(store, team, prefix);
  if (candidates.length <= 1) return candidates[0]?.msg_id;
  const lines = candidates.map((c) => `  ${c.msg_id}  ${c.from} → ${c.to}: ${preview(c.text)}`);
  throw new MailroomError('MESSAGE_AMBIGUOUS', `msg_id prefix ${JSON.stringify(prefix)} matches ${candidates.length} messages in team "${team}"; give more of the id:\n${lines.join('\n')}`, {
    details: { team, prefix, candidates: candidates.map(({ msg_id, from, to }) => ({ msg_id, from, to })) },
  });
}

/** One message a prefix matched. */
interface Candidate {
  msg_id: string;
  from: string;
  to: string;
  text: string;
}

/** The messages (inbox entries and dead letters) whose msg_id starts with `prefix`, once per id, in inbox order. */
async function messagesStartingWith(store: TeamStore, team: string, prefix: string): Promise<Candidate[]> {
  const found = new Map<string, Candidate>();
  for (const inbox of await store.listInboxes(team)) {
    for (const e of await store.readInbox(team, inbox.name)) {
      if (e.msg_id?.startsWith(prefix) && !found.has(e.msg_id)) found.set(e.msg_id, { msg_id: e.msg_id, from: e.from, to: inbox.name, text: e.text });
    }
  }
  for (const l of await store.listDeadLetters(team)) {
    if (l.id.startsWith(prefix) && !found.has(l.id)) found.set(l.id, { msg_id: l.id, from: l.entry.from, to: l.to, text: l.entry.text });
  }
  return [...found.values()];
}

/** A message text as one short line for a list. */
function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
