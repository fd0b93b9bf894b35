/**
 * `mailroom task update <id>`.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { TASK_STATUSES, type TaskStatus } from '../../protocol/task.js';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { parseIds, parseMetadata } from '../parse.js';
import { updateTask } from '../../core/task-update.js';

interface UpdateArgs extends GlobalArgs {
  id: string;
  status?: string;
  owner?: string;
  subject?: string;
  description?: string;
  'active-form'?: string;
  'add-blocks'?: string[];
  'add-blocked-by'?: string[];
  metadata?: string[];
  as?: string;
}

function parseStatus(value: string | undefined): TaskStatus | 'deleted' | undefined {
  if (value === undefined || value === 'deleted' || (TASK_STATUSES as readonly string[]).includes(value)) return value as TaskStatus | 'deleted' | undefined;
  throw new MailroomError('INVALID_ARGUMENT', `--status "${value}": use one of ${TASK_STATUSES.join(', ')}, deleted.`);
}

/** `task update`. */
export const taskUpdateCommand: CommandModule<GlobalArgs, UpdateArgs> = {
  command: 'update <id>',
  describe: 'Change a task: status, owner, text, dependencies, metadata',
  builder: (y) =>
    y
      .positional('id', { type: 'string', demandOption: true, describe: 'Task id' })
      .option('status', { type: 'string', describe: `${TASK_STATUSES.join(' | ')} | deleted` })
      .option('owner', { type: 'string', describe: 'New owner ("" clears it); the new owner gets a task_assignment' })
      .option('subject', { type: 'string' })
      .option('description', { type: 'string' })
      .option('active-form', { type: 'string' })
      .option('add-blocks', { type: 'string', array: true, describe: 'Ids this task blocks' })
      .option('add-blocked-by', { type: 'string', array: true, describe: 'Ids that block this task' })
      .option('metadata', { type: 'string', array: true, describe: 'key=value, or key=null to delete (repeatable)' })
      .option('as', { type: 'string', describe: 'Who makes the change (default: team-lead)' })
      .example('$0 task update 2 --status completed --as bob', 'Complete task #2 as bob')
      .example('$0 task update 3 --add-blocked-by 1,2', 'Make #3 wait for #1 and #2') as Argv<UpdateArgs>,
  handler: async (a) => {
    const result = await updateTask({
      ...(await teamTarget(a)),
      id: String(a.id),
      status: parseStatus(a.status),
      owner: a.owner === undefined ? undefined : a.owner === '' ? null : a.owner,
      subject: a.subject,
      description: a.description,
      activeForm: a['active-form'],
      addBlocks: parseIds(a['add-blocks'], '--add-blocks'),
      addBlockedBy: parseIds(a['add-blocked-by'], '--add-blocked-by'),
      metadata: parseMetadata(a.metadata),
      as: a.as,
    });
    emit(a.json, result, () => (result.deleted ? `Deleted task #${result.task.id}` : `Updated task #${result.task.id} [${result.task.status}]${result.task.owner ? ` owner ${result.task.owner}` : ''}`));
  },
};
