/**
 * `mailroom task claim <id> --as <agent>` and `mailroom task claim --next --as <agent>`.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';

interface ClaimArgs extends GlobalArgs {
  id?: string;
  as: string;
  next?: boolean;
  'busy-check'?: boolean;
}

/** `task claim`. */
export const taskClaimCommand: CommandModule<GlobalArgs, ClaimArgs> = {
  command: 'claim [id]',
  describe: 'Claim a task (owner + in_progress), or the next ready one with --next',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'Task id (or use --next)' })
      .option('as', { type: 'string', demandOption: true, describe: 'Claimant member name' })
      .option('next', { type: 'boolean', describe: 'Claim the lowest-id ready task the member may take (none: NO_READY_TASK names tasks skipped for a missing capability)' })
      .option('busy-check', { type: 'boolean', describe: 'Refuse (agent_busy) if the claimant already owns an open task' })
      .example('$0 task claim 1 --as alice', 'alice claims task #1')
      .example('$0 task claim --next --as bob --busy-check', 'bob takes the next ready task if idle') as Argv<ClaimArgs>,
  handler: async (a) => {
    const target = await teamTarget(a);
    if (a.id !== undefined && a.next === true) throw new MailroomError('INVALID_ARGUMENT', 'Give a task id or --next, not both.');
    if (a.id === undefined && a.next !== true) {
      throw new MailroomError('INVALID_ARGUMENT', `Give a task id or --next: \`mailroom task claim <id> --as ${a.as}\`, or \`mailroom task claim --next --as ${a.as}\` for the lowest-id ready task.`);
    }
    const options = { ...target, as: a.as, busyCheck: a['busy-check'] };
    const { claimNextTask, claimTask, noReadyTaskError } = await import('../../core/tasks/claim.js');
    const task = a.next ? await claimNextTask(options) : await claimTask({ ...options, id: String(a.id) });
    if (!task) throw await noReadyTaskError(options);
    emit(a.json, task, () => `${a.as} claimed task #${task.id}: ${task.subject}`);
  },
};
