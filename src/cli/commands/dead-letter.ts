/**
 * `mailroom dead-letter list|retry`: messages left unread by members who left the team
 * (src/core/messages/dead-letters.ts; docs/cli.md "dead-letter").
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';

interface RetryArgs extends GlobalArgs {
  id?: string;
  all?: boolean;
  to?: string;
}

const list: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'list',
  describe: 'Messages left unread by members who left, oldest first',
  builder: (y) => y.example('$0 dead-letter list', 'Unread mail of members who left, each with the id `dead-letter retry` takes') as Argv<GlobalArgs>,
  handler: async (a) => {
    const { listDeadLetters } = await import('../../core/messages/dead-letters.js');
    const letters = await listDeadLetters(await teamTarget(a));
    const { deadLetterTable } = await import('../render/text.js');
    emit(a.json, letters, () => (letters.length === 0 ? 'No dead letters.' : deadLetterTable(letters)));
  },
};

const retry: CommandModule<GlobalArgs, RetryArgs> = {
  command: 'retry [id]',
  describe: 'Re-send dead letters to their recipient if it is back, else to --to; each is removed once',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The dead letter\'s id (its msg_id, as `dead-letter list` prints)' })
      .option('all', { type: 'boolean', describe: 'Every dead letter of the team' })
      .option('to', { type: 'string', describe: 'Recipient for dead letters whose recipient is not back in the team' })
      .example([
        ['$0 dead-letter retry 736b4163-a652-45ad-8680-6df022272a2d --to carol', 'Give one dead letter (its id from `dead-letter list`) to carol'],
        ['$0 dead-letter retry --all --to carol', 'Give every dead letter whose recipient is not back to carol'],
      ]) as Argv<RetryArgs>,
  handler: async (a) => {
    if ((a.id === undefined) === (a.all !== true)) throw new MailroomError('USAGE', 'Name one dead letter id, or pass --all (not both). List them with `mailroom dead-letter list`.');
    const { retryDeadLetters } = await import('../../core/messages/dead-letters.js');
    const done = await retryDeadLetters({ ...(await teamTarget(a)), ...(a.all ? { all: true } : { ids: [a.id!] }), ...(a.to !== undefined ? { to: a.to } : {}) });
    emit(a.json, done, () => (done.length === 0 ? 'No dead letters.' : done.map((r) => (r.redelivered ? `Redelivered dead letter ${r.id} to ${r.to}: unread again in its inbox.` : `Re-sent dead letter ${r.id} to ${r.to} as ${r.entry.msg_id ?? '(no msg_id)'}.`))));
  },
};

/** The `dead-letter` command group. */
export const deadLetterCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'dead-letter <command>',
  describe: 'Messages left unread by members who left: list and re-send them',
  builder: (y) => y.command([list, retry] as unknown as CommandModule<GlobalArgs, GlobalArgs>[]).demandCommand(1, 'Name a dead-letter command (see --help).') as Argv<GlobalArgs>,
  handler: () => undefined,
};

/** Subcommand names, for did-you-mean. */
export const DEAD_LETTER_COMMANDS = ['list', 'retry'];
