/**
 * `mailroom run <team file>`: run a team (YAML or JSON) to completion in this process, then shut
 * it down through the handshake. Prints who did what; exit 8 (RUN_INCOMPLETE) when tasks remain.
 */
import type { Argv, CommandModule } from 'yargs';
import { MailroomError } from '../../errors.js';
import { emit, writeStdout, writeStderr } from '../output.js';
import { openStore, type GlobalArgs } from '../globals.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import { shellQuote } from '../../core/text/shell-quote.js';
import { selectionHint } from '../../store/open.js';
import { durationOption } from '../durations.js';
import { plural } from '../../core/text/plural.js';
import type { RunReport } from '../../runtime/run/report.js';

interface RunArgs extends GlobalArgs {
  file?: string;
  example?: boolean;
  model?: string;
  workdir?: string;
  timeout?: number;
  'shutdown-timeout'?: number;
  'poll-ms'?: number;
  verbose?: boolean;
  resume?: boolean;
  'max-failed-turns'?: number;
}

/** `run`. */
export const runCommand: CommandModule<GlobalArgs, RunArgs> = {
  command: 'run [file]',
  describe: 'Run a team file (members, models, tasks with dependencies) to completion, then shut the team down',
  builder: (y) =>
    y
      .positional('file', { type: 'string', describe: 'Team file (YAML or JSON), see docs/runtime.md' })
      .option('example', { type: 'boolean', describe: 'Run the demo team file shipped with mailroom (three offline workers, six tasks) instead of a file' })
      .option('model', { type: 'string', describe: 'Model for every member, kind:name (overrides the file)' })
      .option('workdir', { type: 'string', describe: "Members' working directory (default: the file's workdir, else the current directory)" })
      .option('timeout', durationOption('Give up after this long (default 10m)'))
      .option('shutdown-timeout', durationOption('Force a shutdown not answered within this long (default 30s)'))
      .option('poll-ms', durationOption('Safety-net re-read period of idle teammates (default 2000 ms)'))
      .option('max-failed-turns', { type: 'number', describe: 'Give up once every member failed this many model calls in a row (default 3)' })
      .option('verbose', { type: 'boolean', describe: "Also print idle notifications and the teammates' logs" })
      .option('resume', { type: 'boolean', describe: 'If the team exists (the file ran before), resume it: keep its tasks and mail, re-register members that left' })
      .example('$0 run --example --root /tmp/demo --workdir /tmp/demo/work', 'Run the offline demo team shipped with mailroom')
      .example('$0 run team.yaml --model anthropic:claude-sonnet-4-5', 'Same team, every member on Claude') as Argv<RunArgs>,
  handler: async (a) => {
    const file = await teamFileOf(a);
    const { runTeam } = await import('../../runtime/run/run-team.js');
    const render = await import('../render/run-report.js');
    const print = (line: string | undefined) => line !== undefined && !a.json && writeStdout(`${terminalSafe(line)}\n`);
    // The header comes when the run starts: a file, model or work directory refused before then is the only output.
    let started = false;
    const start = () => {
      if (!started) print(`mailroom run: ${file}`);
      started = true;
    };
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
      file,
      team: a.team,
      workdir: a.workdir,
      model: a.model,
      resume: a.resume,
      timeoutMs: a.timeout,
      shutdownTimeoutMs: a['shutdown-timeout'],
      pollMs: a['poll-ms'],
      maxFailedTurns: a['max-failed-turns'],
      onMessage: (entry, at, lead) => print(render.progressLine(entry, at, a.verbose === true, lead)),
      onLog: (name, line) => a.verbose && print(`  ${name}: ${line}`),
      onTurnFailed: (f, at) => failures.show(f.name, f.reason) && writeStderr(`${terminalSafe(render.turnFailedLine(f.name, f.reason, at))}\n`),
      onStart: start,
      onNotice: (line) => (a.json ? writeStderr(`mailroom run: ${terminalSafe(line)}\n`) : (start(), print(line))),
      signal: interrupt.signal,
    }).finally(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
    emit(a.json, report, () => render.reportLines(report));
    if (!report.complete) throw incomplete(report, selectionHint(stores.selection).map(shellQuote).join(' '));
  },
};

/**
 * RUN_INCOMPLETE for a report: the open tasks, the cause, and pointers that exist — `task show` for
 * a task whose command ran (its metadata.outputTail), the members' failures for a model that kept
 * failing, else the task list.
 */
function incomplete(report: RunReport, scope: string): MailroomError {
  const open = report.tasks.filter((t) => t.status !== 'completed');
  const ids = open.map((t) => `#${t.id}`);
  const sel = `${scope ? `${scope} ` : ''}--team ${shellQuote(report.team)}`;
  const ran = open.filter((t) => t.exitCode !== undefined);
  const pointers = [
    ...(ran.length > 0 ? [`the output of ${ran.map((t) => `#${t.id}`).join(', ')} is in its metadata.outputTail: mailroom task show ${ran[0]!.id} ${sel}`] : []),
    ...(report.endReason === 'models-failing' ? ["fix the model (the members' last failures are above and in --json members[].lastFailure), then run again with --resume"] : []),
    `the board: mailroom task list ${sel}`,
  ];
  return new MailroomError('RUN_INCOMPLETE', `The run ended with ${plural(open.length, 'task')} not completed (${ids.join(', ')}): ${report.cause ?? report.endReason}. See ${pointers.join('; ')}.`, {
    details: { team: report.team, open: ids, endReason: report.endReason, ...(report.cause ? { cause: report.cause } : {}) },
  });
}

/** The team file to run: `<file>`, or the packaged demo with --example (exactly one). @throws USAGE */
async function teamFileOf(a: RunArgs): Promise<string> {
  if (a.example && a.file !== undefined) throw new MailroomError('USAGE', `Give a team file or --example, not both (got ${a.file} and --example).`);
  if (a.example) return (await import('../../runtime/run/example.js')).EXAMPLE_TEAM_FILE;
  if (a.file === undefined || a.file === '') throw new MailroomError('USAGE', 'Give a team file to run (`mailroom run team.yaml`), or --example for the demo team shipped with mailroom.');
  return a.file;
}
