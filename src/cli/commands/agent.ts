/**
 * `mailroom agent <name>`: run one registered teammate in this process until its shutdown is
 * approved or it is removed (the process backend; `team spawn --backend process` starts it
 * detached, with output in the team's log directory). SIGTERM/SIGINT stop it cleanly.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { durationOption } from '../durations.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { writeStdout } from '../output.js';

interface AgentArgs extends GlobalArgs {
  name?: string;
  as?: string;
  model?: string;
  'poll-ms'?: number;
  'idle-notifications'?: string;
}

/**
 * Once the teammate stopped, the process ends even if a handle is left open (a file watch on a team
 * directory that another client removed kept it alive, issue 10): a grace of
 * {@link EXIT_GRACE_MS} for output to flush, then exit with the code set so far. The timer is
 * unref'd: a process with nothing left open exits at once as usual.
 */
function exitSoon(): void {
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
}

/** How long `mailroom agent` waits after its teammate stopped before it exits regardless (ms). */
const EXIT_GRACE_MS = 1_000;

/** `agent`. */
export const agentCommand: CommandModule<GlobalArgs, AgentArgs> = {
  command: 'agent [name]',
  describe: 'Run a teammate in this process (process backend entry); logs one line per event',
  builder: (y) =>
    y
      .positional('name', { type: 'string', describe: 'Registered member to run (or --as)' })
      .option('as', { type: 'string', describe: 'Member to run, the same as naming it' })
      .option('model', { type: 'string', describe: "Model, kind:name (default: the member's model, else worker)" })
      .option('poll-ms', durationOption('Safety-net re-read period (default 2000 ms)'))
      .option('idle-notifications', { type: 'string', choices: ['changes', 'every-turn'], describe: 'changes (default): skip an idle_notification that repeats the previous one; every-turn: one after every turn, as Claude Code' })
      .example('$0 agent alice --team research', 'Run teammate alice in the foreground')
      .example("$0 agent reviewer --model 'command:claude -p'", 'Claude Code as the model of teammate reviewer') as Argv<AgentArgs>,
  handler: async (a) => {
    const name = a.name ?? a.as;
    if (name === undefined) throw new MailroomError('USAGE', 'Name the member to run: `mailroom agent <name>` (or --as <name>). Run with --help for usage.');
    if (a.name !== undefined && a.as !== undefined && a.name !== a.as) throw new MailroomError('USAGE', `Give the member once: "${a.name}" and --as ${a.as} name different members. Run with --help for usage.`);
    const { runAgentProcess } = await import('../../runtime/process/agent.js');
    const target = await teamTarget(a);
    const controller = new AbortController();
    const stop = () => controller.abort(new Error('signal'));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    try {
      await runAgentProcess({ ...target, name, model: a.model, pollMs: a['poll-ms'], idleNotifications: a['idle-notifications'] as 'changes' | 'every-turn' | undefined, signal: controller.signal, out: (line) => writeStdout(line) });
    } finally {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      exitSoon();
    }
  },
};
