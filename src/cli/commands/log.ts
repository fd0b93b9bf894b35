/**
 * `mailroom log [team]`: print the team's journal (what passed through mailroom and what `watch`
 * observed), optionally following it. The heavy part loads inside the handler.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { teamTarget, type GlobalArgs } from '../globals.js';

interface LogArgs extends GlobalArgs {
  follow?: boolean;
  record?: boolean;
  tail?: number;
  actor?: string;
  expand?: boolean;
  verify?: boolean;
}

/** `log`. */
export const logCommand: CommandModule<GlobalArgs, LogArgs> = {
  command: 'log [team]',
  describe: "Print the team's journal: every message, delivery, task change (metadata too) and member change",
  builder: (y) =>
    y
      .positional('team', { type: 'string', describe: 'Team (default: --team, $MAILROOM_TEAM, or the only team)' })
      .option('follow', { alias: 'f', type: 'boolean', describe: 'Keep printing new events until interrupted' })
      .option('tail', { type: 'number', describe: 'Print only the last N events of the history' })
      .option('actor', { type: 'string', describe: 'Only what this member did or tried (refused attempts included), every kind of event' })
      .option('expand', { type: 'boolean', describe: 'One line per event (default: runs of deliveries and metadata-only updates share a line that says how many)' })
      .option('verify', { type: 'boolean', describe: 'Signed team: check every journalled message against this machine\'s trusted keys, name each that fails (exit 5 when any does)' })
      .option('record', { type: 'boolean', default: true, describe: 'First journal what is on disk and not yet recorded (--no-record: only read)' })
      .example('$0 log demo', 'Print the history of team "demo"')
      .example('$0 log demo --actor bob --json', 'Everything bob did or was refused, as NDJSON')
      .example('$0 log demo --verify', 'Check the signatures of every message in the history')
      .example('$0 log --claude --team session-1a2b3c4d --follow --json', "Follow a Claude Code session's team as NDJSON") as Argv<LogArgs>,
  handler: async (a) => {
    if (a.tail !== undefined && (!Number.isInteger(a.tail) || a.tail < 0)) {
      throw new MailroomError('INVALID_ARGUMENT', `--tail must be a whole number of events (got ${a.tail}).`);
    }
    const { root, team } = await teamTarget(a);
    if (a.verify) {
      const { runVerifyLog } = await import('../live/verify-log.js');
      await runVerifyLog({ store: root, team, json: a.json === true });
      return;
    }
    if (a.actor !== undefined) {
      if (a.follow) throw new MailroomError('INVALID_ARGUMENT', '--actor does not go with --follow yet: run `mailroom log --actor …` again, or follow everything with --follow.');
      const { runActorLog } = await import('../live/actor-log.js');
      await runActorLog({ store: root, team, actor: a.actor, json: a.json === true, tail: a.tail });
      return;
    }
    const { runLog } = await import('../live/log.js');
    await runLog({ store: root, team, json: a.json === true, follow: a.follow === true, record: a.record !== false, tail: a.tail, expand: a.expand === true });
  },
};
