/**
 * The body of `mailroom agent <name>`: one teammate in this process (the process backend). It
 * logs one timestamped line per event to `out` (the log file, through stdout), and on leaving
 * (shutdown approved, or removed from the roster) removes its own pid record.
 */
import { MailroomError, isMailroomError } from '../../errors.js';
import { storeOf, type StoreRef } from '../../core/context.js';
import { requireMember } from '../../core/members.js';
import { createModel } from '../models/index.js';
import { isAlive } from './kill.js';
import { runTeammate, type TeammateExit } from '../teammate.js';

/** Input of {@link runAgentProcess}. */
export interface AgentProcessOptions {
  root: StoreRef;
  team: string;
  name: string;
  /** Model spec (default: the member's `model`, else worker). */
  model?: string;
  /** Stops the teammate (SIGTERM/SIGINT in the CLI). */
  signal?: AbortSignal;
  pollMs?: number;
  /** Receives each log line (with a trailing newline). */
  out: (line: string) => void;
}

/**
 * Runs the teammate until it stops.
 * @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND, INVALID_ARGUMENT (model), TEAMMATE_RUNNING (another
 * recorded process of this teammate is alive: two runtimes on one inbox would both answer)
 */
export async function runAgentProcess(options: AgentProcessOptions): Promise<TeammateExit> {
  const store = storeOf(options.root);
  const member = requireMember(await store.readConfig(options.team), options.name, 'teammate');
  const running = await store.readProcessRecord(options.team, options.name);
  if (running && running.pid !== process.pid && isAlive(running.pid)) {
    throw new MailroomError('TEAMMATE_RUNNING', `${options.name} already runs as process ${running.pid} (log ${running.logFile}). Stop it first: mailroom team stop ${options.name}.`, {
      details: { team: options.team, name: options.name, pid: running.pid },
    });
  }
  const spec = options.model ?? member.model;
  const model = await createModel(spec).catch((err: unknown) => {
    if (!isMailroomError(err, 'INVALID_ARGUMENT') || options.model) throw err;
    throw new MailroomError('INVALID_ARGUMENT', `${err.message} (it comes from ${options.name}'s "model" in config.json; pass --model kind:name to choose one).`, { cause: err });
  });
  const log = (line: string) => options.out(`${new Date().toISOString()} ${options.name}: ${line}\n`);
  log(`started (pid ${process.pid}, model ${model.id}, team ${options.team})`);
  const exit = await runTeammate({ root: store, team: options.team, name: options.name, model, signal: options.signal, pollMs: options.pollMs, log });
  log(`stopped: ${exit.reason}`);
  if (exit.reason !== 'aborted') await forgetOwnRecord(options, store);
  return exit;
}

async function forgetOwnRecord(o: AgentProcessOptions, store: ReturnType<typeof storeOf>): Promise<void> {
  const record = await store.readProcessRecord(o.team, o.name).catch(() => undefined);
  if (record?.pid === process.pid) await store.deleteProcessRecord(o.team, o.name);
}
