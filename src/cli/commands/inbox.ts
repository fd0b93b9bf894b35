/**
 * `mailroom inbox [agent]`: list an inbox in arrival order.
 */
import { sweptTeamTarget } from '../swept-target.js';
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { messageLine } from '../render/text.js';
import { declareLine, type CommandLine } from '../command-line.js';

interface InboxArgs extends GlobalArgs {
  agent?: string;
  as?: string;
  unread?: boolean;
  'mark-read'?: boolean;
  raw?: boolean;
  all?: boolean;
  status?: boolean;
  archive?: boolean;
}

/** `inbox`'s line (src/cli/command-line.ts): its yargs builder and the direct reader both declare from it. */
export const INBOX_LINE: CommandLine = {
  words: ['inbox'],
  positionals: [{ name: 'agent', describe: 'Whose inbox (default: team-lead, or --as)' }],
  options: {
    as: { type: 'string', describe: 'Read your own inbox as this member (the same as naming it)' },
    unread: { type: 'boolean', describe: 'Only unread messages' },
    'mark-read': { type: 'boolean', describe: 'Mark the listed messages read' },
    raw: { type: 'boolean', describe: 'Show the stored text instead of rendering structured messages' },
    status: { type: 'boolean', describe: "Show each message's delivery state: queued, delivered, read, replied" },
    archive: { type: 'boolean', describe: "Move the read messages at the head of the inbox to its archive now, whatever its size, instead of listing (mailroom's runtimes do it on their own once an inbox passes 64 KiB; not for a Claude Code in-process teammate while its lead runs: it marks messages by position)" },
    all: { type: 'boolean', describe: 'Also list the history: entries moved to the archive (<root>/mailroom/archive), quarantined entries (in a corrupt copy set aside by doctor --fix) and entries their reader removed (from the journal)' },
  },
};

/** `inbox`. */
export const inboxCommand: CommandModule<GlobalArgs, InboxArgs> = {
  command: 'inbox [agent]',
  describe: "List an agent's messages (default: the lead's); structured ones rendered by type",
  builder: (y) =>
    declareLine(y, INBOX_LINE)
      .example('$0 inbox bob --status', "Which of bob's messages were delivered, read, replied to")
      .example('$0 inbox --archive', "Move the lead's read history out of its inbox file now")
      .example('$0 inbox --all', "List the lead's whole history, archived messages first")
      .example('$0 inbox --unread --mark-read', "Read the lead's new messages")
      .example('$0 inbox researcher --raw', "Show researcher's inbox as stored")
      .example('$0 inbox --as alice --unread --mark-read', "alice reads her new messages") as Argv<InboxArgs>,
  handler: async (a) => {
    if (a.agent !== undefined && a.as !== undefined && a.agent !== a.as) {
      throw new MailroomError('USAGE', `Give the inbox once: "${a.agent}" and --as ${a.as} name different members. Run with --help for usage.`);
    }
    if (a.archive) refuseListingFlags(a);
    const { readInbox } = await import('../../core/messages/inbox-read.js');
    const target = await sweptTeamTarget(a);
    if (a.archive) {
      const { archiveInbox } = await import('../../core/messages/inbox-archive.js');
      const archived = await archiveInbox({ ...target, agent: a.agent ?? a.as });
      emit(a.json, { archived }, () => [`Moved ${archived} read message(s) to the archive (\`mailroom inbox --all\` lists them).`]);
      return;
    }
    const view = await readInbox({ ...target, agent: a.agent ?? a.as, unread: a.unread, markRead: a['mark-read'], includeArchived: a.all });
    if (a.status) {
      const { deliveryTimes, statusOf } = await import('../../core/messages/delivery-status.js');
      const store = target.root.team;
      const times = await deliveryTimes(store, target.team);
      const messages = await Promise.all(view.messages.map(async (m) => ({ ...m, status: (await statusOf(store, target.team, view.agent, m.entry, times)).state })));
      emit(a.json, { ...view, messages }, () => (messages.length ? messages.map((m) => `${messageLine(m, a.raw)} [${m.status}${m.entry.msg_id === undefined ? '' : `, msg_id ${m.entry.msg_id}`}]`) : [`(no ${a.unread ? 'unread ' : ''}messages for ${view.agent})`]));
      return;
    }
    emit(a.json, view, () => (view.messages.length ? view.messages.map((m) => messageLine(m, a.raw)) : [`(no ${a.unread ? 'unread ' : ''}messages for ${view.agent})`]));
  },
};

/** The flags that shape a listing; `--archive` lists nothing, so with it they would be dropped. */
const LISTING_FLAGS = ['mark-read', 'unread', 'all', 'status', 'raw'] as const;

/** @throws USAGE when `--archive` comes with a listing flag (it would be ignored: `--archive --mark-read` would mark nothing). */
function refuseListingFlags(a: InboxArgs): void {
  const given = LISTING_FLAGS.filter((f) => a[f] === true).map((f) => `--${f}`);
  if (given.length === 0) return;
  throw new MailroomError('USAGE', `--archive moves the read head instead of listing, so ${given.join(' and ')} would be ignored. Run \`mailroom inbox --archive\` alone, then \`mailroom inbox ${given.join(' ')}\` for the listing.`, { details: { options: given } });
}
