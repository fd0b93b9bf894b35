/**
 * `mailroom task …`: add, list, show, update, claim, delete.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { TASK_STATUSES, type TaskStatus } from '../../protocol/task.js';
import { parseCapabilities, REQUIRES_KEY } from '../../domain/capabilities.js';
import { emit } from '../output.js';
import { choiceError, TASK_STATUS_WORDS } from '../choice.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { sweptTeamTarget } from '../swept-target.js';
import { parseIds, parseMetadata } from '../parse.js';
import { taskDetail, taskTable } from '../render/text.js';
import { taskUpdateCommand } from './task-update.js';
import { taskClaimCommand } from './task-claim.js';
import { declareLine, type CommandLine } from '../command-line.js';

interface AddArgs extends GlobalArgs {
  subject: string;
  description?: string;
  'blocked-by'?: string[];
  owner?: string;
  'active-form'?: string;
  metadata?: string[];
  'idempotency-key'?: string;
  requires?: string[];
  as?: string;
}

const add: CommandModule<GlobalArgs, AddArgs> = {
  command: 'add <subject>',
  describe: 'Create a task (next id under the list lock; never reused)',
  builder: (y) =>
    y
      .positional('subject', { type: 'string', demandOption: true, describe: 'Short imperative title' })
      .option('description', { type: 'string', describe: 'Free-text description of the task' })
      .option('blocked-by', { type: 'string', array: true, describe: 'Ids that must complete first, e.g. 1,2' })
      .option('owner', { type: 'string', describe: 'Initial owner (gets a task_assignment message)' })
      .option('active-form', { type: 'string', describe: 'Present-continuous text shown while in progress' })
      .option('metadata', { type: 'string', array: true, describe: 'key=value (repeatable)' })
      .option('as', { type: 'string', describe: 'Who creates it (default: team-lead)' })
      .option('idempotency-key', { type: 'string', describe: 'Retry-safe: an add with a key already used (24 h) creates nothing and prints the first task' })
      .option('requires', { type: 'string', array: true, describe: 'Capabilities a claimant must declare, e.g. review,csv (stored as metadata.requires)' })
      .example('$0 task add "Summarise data" --blocked-by 1 --metadata command="wc -l data.csv"', 'Add a task blocked by #1') as Argv<AddArgs>,
  handler: async (a) => {
    const { addTask } = await import('../../core/tasks/board.js');
    const target = await teamTarget(a);
    const task = await addTask({
      ...target,
      subject: a.subject,
      description: a.description,
      blockedBy: parseIds(a['blocked-by'], '--blocked-by'),
      owner: a.owner,
      activeForm: a['active-form'],
      metadata: withRequires(parseMetadata(a.metadata), a.requires),
      as: a.as,
      ...(a['idempotency-key'] !== undefined ? { idempotencyKey: a['idempotency-key'] } : {}),
    });
    emit(a.json, task, () => `Created task #${task.id}: ${task.subject}`);
  },
};

/** `--metadata` with `requires` set from `--requires` (capability names checked). @throws INVALID_ARGUMENT */
function withRequires(metadata: Record<string, unknown> | undefined, requires: readonly string[] | undefined): Record<string, unknown> | undefined {
  const list = parseCapabilities(requires, '--requires');
  if (list.length === 0) return metadata;
  if (metadata?.[REQUIRES_KEY] !== undefined) throw new MailroomError('INVALID_ARGUMENT', `Give the required capabilities once: --requires and --metadata ${REQUIRES_KEY}=… both set them.`);
  return { ...metadata, [REQUIRES_KEY]: list };
}

interface ListArgs extends GlobalArgs {
  status?: string;
  owner?: string;
  ready?: boolean;
}

function parseStatus(value: string | undefined): TaskStatus | undefined {
  if (value === undefined || (TASK_STATUSES as readonly string[]).includes(value)) return value as TaskStatus | undefined;
  throw choiceError('--status', value, TASK_STATUSES, TASK_STATUS_WORDS);
}

/** `task list`'s line (src/cli/command-line.ts): its yargs builder and the direct reader both declare from it. */
export const TASK_LIST_LINE: CommandLine = {
  words: ['task', 'list'],
  positionals: [],
  options: {
    status: { type: 'string', describe: TASK_STATUSES.join(' | ') },
    owner: { type: 'string' },
    ready: { type: 'boolean', describe: 'Only pending, unowned, unblocked tasks' },
  },
};

/** `task show`'s line (see {@link TASK_LIST_LINE}). */
export const TASK_SHOW_LINE: CommandLine = { words: ['task', 'show'], positionals: [{ name: 'id', required: true, describe: 'Task id' }], options: {} };

/** `task list`. */
export const taskListCommand: CommandModule<GlobalArgs, ListArgs> = {
  command: 'list',
  describe: 'List tasks in numeric id order',
  builder: (y) =>
    declareLine(y, TASK_LIST_LINE)
      .example('$0 task list --ready', 'Tasks anyone can claim now') as Argv<ListArgs>,
  handler: async (a) => {
    const { listTasks } = await import('../../core/tasks/board.js');
    const views = await listTasks({ ...(await sweptTeamTarget(a)), status: parseStatus(a.status), owner: a.owner, ready: a.ready });
    emit(a.json, views, () => (views.length ? taskTable(views) : ['(no tasks)']));
  },
};

/** `task show`. */
export const taskShowCommand: CommandModule<GlobalArgs, GlobalArgs & { id: string }> = {
  command: 'show <id>',
  describe: 'Show one task',
  builder: (y) => declareLine(y, TASK_SHOW_LINE).example('$0 task show 2', 'Show task #2') as Argv<GlobalArgs & { id: string }>,
  handler: async (a) => {
    const { getTask } = await import('../../core/tasks/board.js');
    const view = await getTask({ ...(await sweptTeamTarget(a)), id: String(a.id) });
    emit(a.json, view, () => taskDetail(view));
  },
};

const remove: CommandModule<GlobalArgs, GlobalArgs & { id: string; as?: string }> = {
  command: 'delete <id>',
  describe: 'Delete a task (its id is never reused; references to it are removed)',
  builder: (y) =>
    y
      .positional('id', { type: 'string', demandOption: true, describe: 'Task id' })
      .option('as', { type: 'string', describe: 'Who deletes it (default: team-lead); the team policy (deleteTasks) binds this member' })
      .example('$0 task delete 3', 'Delete task #3') as Argv<GlobalArgs & { id: string; as?: string }>,
  handler: async (a) => {
    const { deleteTask } = await import('../../core/tasks/board.js');
    const target = await teamTarget(a);
    const task = await deleteTask({ ...target, id: String(a.id), ...(a.as !== undefined ? { as: a.as } : {}) });
    emit(a.json, { deleted: task }, () => `Deleted task #${task.id}: ${task.subject}`);
  },
};

/** The subcommands of `task`, in help order. */
export const TASK_COMMANDS = [add, taskListCommand, taskShowCommand, taskUpdateCommand, taskClaimCommand, remove] as unknown as CommandModule<GlobalArgs, GlobalArgs>[];

/** The `task` command group. */
export const taskCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'task <command>',
  describe: 'Tasks: add, list, show, update, claim, delete',
  builder: (y) =>
    y.command(TASK_COMMANDS)
      .example('$0 task add "Write tests" --blocked-by 1', 'Add a task that waits for #1')
      .example('$0 task claim --next --as alice', 'alice takes the lowest ready task')
      .demandCommand(1, 'Name a task command (see --help).') as Argv<GlobalArgs>,
  handler: () => undefined,
};
