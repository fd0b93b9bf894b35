/**
 * `mailroom message show <msg_id>`: where a message is in its delivery states (queued → delivered
 * → read → replied; core/messages/delivery-status.ts), and when it reached each. The id may be a
 * unique prefix of at least 6 characters (MESSAGE_AMBIGUOUS lists the candidates of one that is not).
 */
import type { Argv, CommandModule } from 'yargs';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';

interface ShowArgs extends GlobalArgs {
  id: string;
}

const show: CommandModule<GlobalArgs, ShowArgs> = {
  command: 'show <id>',
  describe: "A message's delivery state: queued, delivered, read, replied, or dead-lettered (with times)",
  builder: (y) =>
    y
      .positional('id', { type: 'string', demandOption: true, describe: 'The message\'s msg_id (printed by `team send`, `inbox --status`), or a unique prefix of at least 6 characters' })
      .example('$0 message show 736b4163-a652-45ad-8680-6df022272a2d', 'Has bob read the message with this msg_id (as `team send` printed it)? Did he reply?')
      .example('$0 message show 736b4163', 'The same message by the first group of its id') as Argv<ShowArgs>,
  handler: async (a) => {
    const { messageStatus, DELIVERY_STATES } = await import('../../core/messages/delivery-status.js');
    const s = await messageStatus({ ...(await teamTarget(a)), msgId: a.id });
    emit(a.json, s, () => [
      `Message ${s.msg_id} from ${s.from} to ${s.to}: ${s.state}`,
      ...DELIVERY_STATES.map((state) => `  ${state.padEnd(10)} ${s.at[state] === undefined ? '-' : s.at[state] === true ? 'yes (time unknown)' : s.at[state]}${state === 'replied' && s.reply ? ` (reply ${s.reply})` : ''}`),
      ...(s.state === 'dead-lettered'
        ? [`  dead-lettered ${String(s.at['dead-lettered'])}: ${s.to} left the team with it unread; ${s.dead_letter ? `re-send it with \`mailroom dead-letter retry ${s.msg_id} --to <member>\`` : 're-sent since by `dead-letter retry`'}`]
        : []),
    ]);
  },
};

/** The `message` command group. */
export const messageCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'message <command>',
  describe: 'Messages: show one\'s delivery state',
  builder: (y) => y.command([show] as unknown as CommandModule<GlobalArgs, GlobalArgs>[]).demandCommand(1, 'Name a message command (see --help).') as Argv<GlobalArgs>,
  handler: () => undefined,
};

/** Subcommand names, for did-you-mean. */
export const MESSAGE_COMMANDS = ['show'];
