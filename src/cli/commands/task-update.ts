/**
 * `mailroom task update <id>`.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { TASK_STATUSES, type TaskStatus } from '../../protocol/task.js';
import { emit } from '../output.js';
import { choiceError, TASK_STATUS_WORDS } from '../choice.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { parseIds, parseMetadata } from '../parse.js';
import { updatedLine } from '../render/text.js';

interface UpdateArgs extends GlobalArgs {
  id: string;
  status?: string;
  owner?: string;
  subject?: string;
  description?: string;
  'active-form'?: string;
  blocks?: string[];
  'blocked-by'?: string[];
  'remove-blocks'?: string[];
  'remove-blocked-by'?: string[];
  metadata?: string[];
  as?: string;
}

function parseStatus(value: string | undefined): TaskStatus | 'deleted' | undefined {
  if (value === undefined || value === 'deleted' || (TASK_STATUSES as readonly string[]).includes(value)) return value as TaskStatus | 'deleted' | undefined;
  throw choiceError('--status', value, [...TASK_STATUSES, 'deleted'], TASK_STATUS_WORDS);
}

/** The options that change a task: `task update` with none of them is refused (it would change nothing, yet say "Updated"). */
const CHANGES = ['status', 'owner', 'subject', 'description', 'active-form', 'blocked-by', 'blocks', 'remove-blocked-by', 'remove-blocks', 'metadata'] as const;

/** `task update`. */
export const taskUpdateCommand: CommandModule<GlobalArgs, UpdateArgs> = {
  command: 'update <id>',
  describe: 'Change a task: status, owner, text, dependencies, metadata',
  builder: (y) =>
    y
      .positional('id', { type: 'string', demandOption: true, describe: 'Task id' })
      .option('status', { type: 'string', describe: `${TASK_STATUSES.join(' | ')} | deleted` })
      .option('owner', { type: 'string', describe: 'New owner ("" clears it); the new owner gets a task_assignment' })
      .option('subject', { type: 'string', describe: "New title (the task file's `subject`)" })
      .option('description', { type: 'string', describe: 'New description (free text; "" clears it)' })
      .option('active-form', { type: 'string', describe: 'What the owner shows while working on it, e.g. "Writing the report" (`activeForm`)' })
      .option('blocked-by', { alias: 'add-blocked-by', type: 'string', array: true, describe: 'Add ids that must complete first, e.g. 1,2 (as task add)' })
      .option('blocks', { alias: 'add-blocks', type: 'string', array: true, describe: 'Add ids this task blocks' })
      .option('remove-blocked-by', { type: 'string', array: true, describe: 'Remove ids from what blocks this task (both tasks change)' })
      .option('remove-blocks', { type: 'string', array: true, describe: 'Remove ids from what this task blocks (both tasks change)' })
      .option('metadata', { type: 'string', array: true, describe: 'key=value, or key=null to delete (repeatable)' })
      .option('as', { type: 'string', describe: 'Who makes the change (default: team-lead)' })
      .example('$0 task update 2 --status completed --as bob', 'Complete task #2 as bob')
      .example('$0 task update 3 --blocked-by 1,2', 'Make #3 wait for #1 and #2')
      .example('$0 task update 3 --remove-blocked-by 2', '#3 no longer waits for #2') as Argv<UpdateArgs>,
  handler: async (a) => {
    if (CHANGES.every((option) => a[option] === undefined)) {
      throw new MailroomError('USAGE', `Nothing to change: give \`mailroom task update ${a.id}\` one of ${CHANGES.map((o) => `--${o}`).join(', ')}. See the task with \`mailroom task show ${a.id}\`.`);
    }
    const { updateTask } = await import('../../core/tasks/update.js');
    const target = await teamTarget(a);
    const result = await updateTask({
      ...target,
      id: String(a.id),
      status: parseStatus(a.status),
      owner: a.owner === undefined ? undefined : a.owner === '' ? null : a.owner,
      subject: a.subject,
      description: a.description,
      activeForm: a['active-form'],
      addBlocks: parseIds(a.blocks, '--blocks'),
      addBlockedBy: parseIds(a['blocked-by'], '--blocked-by'),
      removeBlocks: parseIds(a['remove-blocks'], '--remove-blocks'),
      removeBlockedBy: parseIds(a['remove-blocked-by'], '--remove-blocked-by'),
      metadata: parseMetadata(a.metadata),
      as: a.as,
    });
    const departed = result.departedOwner !== undefined ? ` (its owner ${result.departedOwner} has left the team, so it was released)` : '';
    emit(a.json, result, () => (result.deleted ? `Deleted task #${result.task.id}` : `${updatedLine(result.task)}${departed}`));
  },
};
