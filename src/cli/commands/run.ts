/**
 * `mailroom run <team file>`: run a team (YAML or JSON) to completion in this process, then shut
 * it down through the handshake. Prints who did what; exit 8 (RUN_INCOMPLETE) when tasks remain.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { emit } from '../output.js';
import { openStore, type GlobalArgs } from '../globals.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import { shellQuote } from '../../core/text/shell-quote.js';
import { selectionHint } from '../../store/open.js';
import { durationOption } from '../durations.js';
import { plural } from '../../core/text/plural.js';

interface RunArgs extends GlobalArgs {
  file: string;
  model?: string;
  workdir?: string;
  timeout?: number;
  'shutdown-timeout'?: number;
  'poll-ms'?: number;
  verbose?: boolean;
  resume?: boolean;
}

/** `run`. */
export const runCommand: CommandModule<GlobalArgs, RunArgs> = {
  command: 'run <file>',
  describe: 'Run a team file (members, models, tasks with dependencies) to completion, then shut the team down',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'Team file (YAML or JSON), see docs/runtime.md' })
      .option('model', { type: 'string', describe: 'Model for every member, kind:name (overrides the file)' })
      .option('workdir', { type: 'string', describe: "Members' working directory (default: the file's workdir, else the current directory)" })
      .option('timeout', durationOption('Give up after this long (default 10m)'))
      .option('shutdown-timeout', durationOption('Force a shutdown not answered within this long (default 30s)'))
      .option('poll-ms', durationOption('Safety-net re-read period of idle teammates (default 2000 ms)'))
      .option('verbose', { type: 'boolean', describe: "Also print idle notifications and the teammates' logs" })
      .option('resume', { type: 'boolean', describe: 'If the team exists (the file ran before), resume it: keep its tasks and mail, re-register members that left' })
      .example('$0 run fixtures/demo/team.yaml --root /tmp/demo --workdir /tmp/demo/work', 'Run the offline demo team')
      .example('$0 run team.yaml --model anthropic:claude-sonnet-4-5', 'Same team, every member on Claude') as Argv<RunArgs>,
  handler: async (a) => {
    const { runTeam } = await import('../../runtime/run/run-team.js');
    const render = await import('../render/run-report.js');
    const print = (line: string | undefined) => line !== undefined && !a.json && process.stdout.write(`${terminalSafe(line)}\n`);
    print(`mailroom run: ${a.file}`);
    const failures = new render.RepeatFilter(); // a member's failure is printed again only when its reason changes
    // Ctrl-C / SIGTERM: stop the teammates and their commands (own process groups), then report.
    // A second signal, with the handlers gone, ends the process at once.
    const interrupt = new AbortController();
    const onSignal = () => interrupt.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const stores = await openStore(a);
    const report = await runTeam({
      store: stores,
      file: a.file,
      team: a.team,
      workdir: a.workdir,
      model: a.model,
      resume: a.resume,
      timeoutMs: a.timeout,
      shutdownTimeoutMs: a['shutdown-timeout'],
      pollMs: a['poll-ms'],
      onMessage: (entry, at, lead) => print(render.progressLine(entry, at, a.verbose === true, lead)),
      onLog: (name, line) => a.verbose && print(`  ${name}: ${line}`),
      onTurnFailed: (f, at) => failures.show(f.name, f.reason) && process.stderr.write(`${terminalSafe(render.turnFailedLine(f.name, f.reason, at))}\n`),
      onNotice: (line) => (a.json ? process.stderr.write(`mailroom run: ${terminalSafe(line)}\n`) : print(line)),
      signal: interrupt.signal,
    }).finally(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
    emit(a.json, report, () => render.reportLines(report));
    if (!report.complete) {
      const open = report.tasks.filter((t) => t.status !== 'completed').map((t) => `#${t.id}`);
      throw new MailroomError('RUN_INCOMPLETE', `The run ended with ${plural(open.length, 'task')} not completed (${open.join(', ')})${report.timedOut ? ' after the run timeout' : report.interrupted ? ' (interrupted)' : ''}. See each task's metadata.outputTail: mailroom task show <id> ${selectionHint(stores.selection).map(shellQuote).join(' ')} --team ${shellQuote(report.team)}.`, {
        details: { team: report.team, open },
      });
    }
  },
};
