/**
 * Orphaned teammate commands: a runtime (`mailroom run`, `mailroom agent`) that dies without
 * cleaning up — SIGKILL, the OOM killer — leaves its task commands running, because each runs
 * detached in its own process group, and leaves their records (`CommandRecord`) behind. A record
 * whose owner is dead (pid gone, or reused by another process) is judged here and reaped: a
 * command still running as recorded is stopped (group SIGTERM, SIGKILL after a grace period), a
 * record of a command that is gone is removed, and a command whose identity cannot be verified is
 * left alone. The task is left as any crash of its runtime leaves it: `in_progress`, owned by the
 * member (docs/runtime.md "Orphaned commands"). Called at the start of a runtime for a team and by
 * `mailroom doctor`.
 */
import type { CommandRecord } from '../../protocol/command.js';
import { selectionHint } from '../../store/open.js';
import type { Stores } from '../../store/selection.js';
import { DEFAULT_GRACE_MS, stopLeaderlessGroup, stopProcessGroup } from './process-group.js';
import { livenessOf, mayBeRunning, type Liveness } from './process-identity.js';
import { shellQuote } from '../text/shell-quote.js';

/**
 * A record judged: `orphan` (owner dead, command running as recorded), `finished` (owner and
 * command gone), `pid-reused` (owner dead, the command's pid now another process), `unverified`
 * (owner dead, a process has the command's pid but its start time is unknown).
 */
export type OrphanVerdict = 'orphan' | 'finished' | 'pid-reused' | 'unverified';

/** A record whose owner is dead, with its verdict. */
export interface OrphanCommand {
  /** The command record as stored (`<root>/mailroom/commands/<team>/<pid>.json`). */
  record: CommandRecord;
  /** What became of the command (see {@link OrphanVerdict}). */
  verdict: OrphanVerdict;
}

/** What {@link reapOrphan} did: `killed`, only the record `removed`, or `left` (nothing done). */
export interface ReapOutcome extends OrphanCommand {
  action: 'killed' | 'removed' | 'left';
  /** One sentence for logs and doctor: what was done, and what became of the task. */
  note: string;
}

/** The records of `team` (every team when undefined) whose owner runtime is dead, judged. */
export async function findOrphanCommands(store: Stores, team?: string): Promise<OrphanCommand[]> {
  const found: OrphanCommand[] = [];
  for (const record of await store.host.listCommandRecords(team)) {
    if (await mayBeRunning(store.host, record.owner)) continue;
    found.push({ record, verdict: verdictOf(await livenessOf(store.host, { pid: record.pid, startTime: record.startTime })) });
  }
  return found;
}

/** Reaps one judged record (see the module comment). Never signals an unverified process. */
export async function reapOrphan(store: Stores, found: OrphanCommand, graceMs = DEFAULT_GRACE_MS): Promise<ReapOutcome> {
  const { record } = found;
  if (found.verdict === 'unverified') return { ...found, action: 'left', note: `not signalled: process ${record.pid} cannot be verified to be the command (no start time, or it does not lead process group ${record.pgid}); check it with \`ps -o pid,args -g ${record.pgid}\`` };
  if (found.verdict === 'orphan') {
    const stop = await stopProcessGroup(store.host, record.pgid, { pid: record.pid, startTime: record.startTime }, graceMs);
    if (!stop.signalled) return reapOrphan(store, { record, verdict: verdictOf(stop.liveness) }, graceMs); // it changed meanwhile
    if (!stop.stopped) return { ...found, action: 'left', note: `process group ${record.pgid} still runs after SIGKILL` };
    await store.host.deleteCommandRecord(record.team, record.pid);
    return { ...found, action: 'killed', note: `stopped process group ${record.pgid} (${stop.signal}); ${await taskNote(store, record)}` };
  }
  if (found.verdict === 'finished' && (await stopLeaderlessGroup(store.host, record.pgid, graceMs))) {
    await store.host.deleteCommandRecord(record.team, record.pid);
    return { ...found, action: 'killed', note: `its shell had ended; stopped what it left in process group ${record.pgid}; ${await taskNote(store, record)}` };
  }
  await store.host.deleteCommandRecord(record.team, record.pid);
  return { ...found, action: 'removed', note: found.verdict === 'finished' ? 'record removed' : `not signalled (pid ${record.pid} is another process now); record removed` };
}

/** Finds and reaps every orphaned command of `team` (every team when undefined), in parallel. */
export async function reapOrphanCommands(store: Stores, team?: string, graceMs = DEFAULT_GRACE_MS): Promise<ReapOutcome[]> {
  return Promise.all((await findOrphanCommands(store, team)).map((found) => reapOrphan(store, found, graceMs)));
}

function verdictOf(command: Liveness): OrphanVerdict {
  return ({ alive: 'orphan', dead: 'finished', reused: 'pid-reused', unverified: 'unverified' } as const)[command];
}

/** `the command of task #3 (alice, team demo) "sleep 300" (pid 1234)`. */
export function describeCommand(record: CommandRecord): string {
  const what = record.taskId !== undefined ? `the command of task #${record.taskId}` : 'the model program';
  const command = record.command.length > 60 ? `${record.command.slice(0, 57)}...` : record.command;
  return `${what} (${record.agent}, team ${record.team}) ${JSON.stringify(command)} (pid ${record.pid})`;
}

/** One line for a runtime's log: `orphaned the command of task #1 (…) (pid 5), left by process 4: stopped process group 5 (SIGTERM); …`. */
export function describeReap(outcome: ReapOutcome): string {
  const label = { orphan: 'orphaned', finished: 'stale record of', 'pid-reused': 'stale record of', unverified: 'unverifiable' }[outcome.verdict];
  return `${label} ${describeCommand(outcome.record)}, left by process ${outcome.record.owner.pid}: ${outcome.note}`;
}

/** What became of the command's task (unchanged: as any crash of its runtime leaves it). */
async function taskNote(store: Stores, record: CommandRecord): Promise<string> {
  if (record.taskId === undefined) return 'no task involved';
  const task = await store.team.readTask(record.team, record.taskId).catch(() => undefined);
  if (!task || task.status === 'completed' || task.owner === undefined) return `task #${record.taskId} left as it is`;
  const stop = `mailroom ${selectionHint(store.selection).map(shellQuote).join(' ')} --team ${shellQuote(record.team)} team stop ${task.owner} --force`;
  return `task #${task.id} stays ${task.status} with ${task.owner}, as after any crash of its runtime (\`mailroom agent ${task.owner}\` runs the member again; \`${stop}\` removes it and puts the task back to pending)`;
}
