/**
 * `mailroom agent <name>`: run one registered teammate in this process until its shutdown is
 * approved or it is removed (the process backend; `team spawn --backend process` starts it
 * detached, with output in the team's log directory). SIGTERM/SIGINT stop it cleanly.
 */
import type { Argv, CommandModule } from 'yargs';
import { teamTarget, type GlobalArgs } from '../globals.js';

interface AgentArgs extends GlobalArgs {
  name: string;
  model?: string;
  'poll-ms'?: number;
}

/** `agent`. */
export const agentCommand: CommandModule<GlobalArgs, AgentArgs> = {
  command: 'agent <name>',
  describe: 'Run a teammate in this process (process backend entry); logs one line per event',
  builder: (y) =>
    y
      .positional('name', { type: 'string', demandOption: true, describe: 'Registered member to run' })
      .option('model', { type: 'string', describe: "Model, kind:name (default: the member's model, else worker)" })
      .option('poll-ms', { type: 'number', describe: 'Safety-net re-read period, ms (default 2000)' })
      .example('$0 agent alice --team research', 'Run teammate alice in the foreground')
      .example("$0 agent reviewer --model 'command:claude -p'", 'Claude Code as the model of teammate reviewer') as Argv<AgentArgs>,
  handler: async (a) => {
    const { runAgentProcess } = await import('../../runtime/process/agent.js');
    const target = await teamTarget(a);
    const controller = new AbortController();
    const stop = () => controller.abort(new Error('signal'));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    try {
      await runAgentProcess({ ...target, name: a.name, model: a.model, pollMs: a['poll-ms'], signal: controller.signal, out: (line) => process.stdout.write(line) });
    } finally {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    }
  },
};
