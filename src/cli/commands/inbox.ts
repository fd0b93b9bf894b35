/**
 * `mailroom inbox [agent]`: list an inbox in arrival order.
 */
import type { Argv, CommandModule } from 'yargs';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { messageLine } from '../render/text.js';
import { readInbox } from '../../core/inbox.js';

interface InboxArgs extends GlobalArgs {
  agent?: string;
  unread?: boolean;
  'mark-read'?: boolean;
  raw?: boolean;
  all?: boolean;
}

/** `inbox`. */
export const inboxCommand: CommandModule<GlobalArgs, InboxArgs> = {
  command: 'inbox [agent]',
  describe: "List an agent's messages (default: the lead's); structured ones rendered by type",
  builder: (y) =>
    y
      .positional('agent', { type: 'string', describe: 'Whose inbox (default: team-lead)' })
      .option('unread', { type: 'boolean', describe: 'Only unread messages' })
      .option('mark-read', { type: 'boolean', describe: 'Mark the listed messages read' })
      .option('raw', { type: 'boolean', describe: 'Show the stored text instead of rendering structured messages' })
      .option('all', { type: 'boolean', describe: 'Also list the read history: entries moved to the archive (<root>/mailroom/archive) and entries their reader removed (from the journal)' })
      .example('$0 inbox --all', "List the lead's whole history, archived messages first")
      .example('$0 inbox --unread --mark-read', "Read the lead's new messages")
      .example('$0 inbox researcher --raw', "Show researcher's inbox as stored") as Argv<InboxArgs>,
  handler: async (a) => {
    const view = await readInbox({ ...(await teamTarget(a)), agent: a.agent, unread: a.unread, markRead: a['mark-read'], includeArchived: a.all });
    emit(a.json, view, () => (view.messages.length ? view.messages.map((m) => messageLine(m, a.raw)) : [`(no ${a.unread ? 'unread ' : ''}messages for ${view.agent})`]));
  },
};
