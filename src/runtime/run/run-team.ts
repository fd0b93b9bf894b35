/**
 * `mailroom run <team file>`: reaps the team's commands that a killed runtime left running, sets
 * the team up, hosts its members in this process, follows the lead's inbox (this process is the
 * lead), waits until the team is quiet (or the run timeout), then shuts every teammate down through
 * the handshake (forced after the shutdown timeout, or after a rejection) and reports. Nothing is
 * left running.
 */
import { resolve } from 'node:path';
import type { InboxEntry } from '../../protocol/inbox.js';
import type { StoreRef } from '../../core/context.js';
import { describeReap, reapOrphanCommands } from '../../core/processes/orphan-commands.js';
import { InProcessHost, type HostStopResult } from '../host.js';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../lifecycle/answer.js';
import { createModel } from '../models/index.js';
import { LeadInbox } from './lead-inbox.js';
import { waitUntilQuiet } from './quiet.js';
import { summarise, type RunReport } from './report.js';
import { TurnFailures, type TurnFailure } from './turn-failures.js';
import { snapshotOutputs, sortOutputs } from './outputs.js';
import { rejoinTeam, resolveMembers, setUpTeam, type SetUpMember } from './setup.js';
import { MailroomError, isMailroomError } from '../../errors.js';
import type { Stores } from '../../store/selection.js';
import { loadTeamFile } from './team-file.js';
import { deadline } from '../deadline.js';
import { DEFAULT_MAX_FAILED_TURNS, StallWatch, stallCause } from './stall.js';
import { endOf } from './end-cause.js';

/** Default run timeout (ms). */
export const DEFAULT_RUN_TIMEOUT_MS = 600_000;

/** Input of {@link runTeam}. */
export interface RunTeamOptions {
  store: StoreRef;
  /** Path of the team file. */
  file: string;
  /** Team name (default: the file's `team`). */
  team?: string;
  /**
   * When the team exists already, resume it instead of refusing with TEAM_EXISTS: keep its tasks,
   * inboxes and members, register again the file's members that left, and run until quiet.
   */
  resume?: boolean;
  /** Work directory (default: the file's `workdir`, relative to it, else the current directory). */
  workdir?: string;
  /** Model for every member, overriding the file. */
  model?: string;
  timeoutMs?: number;
  shutdownTimeoutMs?: number;
  pollMs?: number;
  /** Each message that reaches the lead, with ms since the start and the lead's member name (`team-lead`). */
  onMessage?: (entry: InboxEntry, atMs: number, lead: string) => void;
  /**
   * End the run when every teammate's last this-many turns failed in a row (its model call threw:
   * nobody can make progress); default {@link DEFAULT_MAX_FAILED_TURNS}. The report says
   * `endReason: "models-failing"`.
   */
  maxFailedTurns?: number;
  /** Teammates' log lines. */
  onLog?: (name: string, line: string) => void;
  /** Each turn of a member that failed (its model call threw), with ms since the start; also in the report. */
  onTurnFailed?: (failure: TurnFailure, atMs: number) => void;
  /**
   * Called once, when the team is set up (created, or rejoined with `resume`) and the run starts:
   * every check that can refuse the file, its models or the work directory has passed.
   */
  onStart?: (run: { team: string; workdir: string }) => void;
  /**
   * Lines about the run itself: at the start, each command of this team that a runtime which died
   * (SIGKILL, OOM killer) left running, and what was done about it (docs/runtime.md "Orphaned commands").
   */
  onNotice?: (line: string) => void;
  /**
   * Interrupts the run (the CLI aborts it on SIGINT/SIGTERM): it stops waiting for quiet and forces
   * every teammate to stop at once (their model calls and task commands are aborted), then reports.
   */
  signal?: AbortSignal;
}

/**
 * Runs a team file to completion. Before it sets the team up, the team's orphaned commands are
 * reaped (core/processes/orphan-commands.ts), even when the team then turns out to exist. Every member's
 * model is created and the work directory made before anything is written to the store: when
 * either fails, no team is left behind.
 * @throws INVALID_ARGUMENT (team file, model spec or script, work directory), TEAM_EXISTS, MODEL_ERROR
 */
export async function runTeam(o: RunTeamOptions): Promise<RunReport> {
  const stores = o.store;
  const loaded = await loadTeamFile(o.file, stores);
  const team = o.team ?? loaded.file.team;
  for (const reaped of await reapOrphanCommands(stores, team)) o.onNotice?.(describeReap(reaped));
  // Everything that can fail without the store is done first (models: specs, keys, script files;
  // the work directory), so a failure leaves no half-created team and the same command can be rerun.
  const members = resolveMembers(loaded, o.model);
  const models = await Promise.all(members.map((m) => createModel(m.model, stores.host)));
  const workdir = await stores.host.ensureUserDir(o.workdir ?? (loaded.file.workdir !== undefined ? resolve(loaded.dir, loaded.file.workdir) : process.cwd()), 'work directory');
  const declared = await snapshotOutputs(stores.host, loaded, workdir);
  const setUp = { store: stores, loaded, team, workdir, members };
  let rejoined: string[] | undefined;
  if (o.resume && (await teamExists(stores, team))) rejoined = await rejoinTeam(setUp);
  else await setUpTeam(setUp).catch((err: unknown) => {
    // The team of an earlier run of this file: resuming it is as likely what the user wants as deleting it.
    if (!isMailroomError(err, 'TEAM_EXISTS') || o.resume) throw err;
    throw new MailroomError('TEAM_EXISTS', `${err.message.replace(/\.?$/, '.')} To continue the earlier run of this team instead, run the same command with --resume.`, { details: err.details });
  });
  o.onStart?.({ team, workdir });
  if (rejoined) o.onNotice?.(`resuming team ${team}${rejoined.length ? `; registered again: ${rejoined.join(', ')}` : ''}`);
  const startedAt = Date.now();
  let poke = () => {};
  const host = await InProcessHost.open({ root: stores, team, pollMs: o.pollMs, log: o.onLog, onState: () => poke() });
  const failures = new TurnFailures();
  const lead = new LeadInbox(stores, team, (e, to) => {
    const failed = failures.note(e);
    if (failed) o.onTurnFailed?.(failed, Date.now() - startedAt);
    o.onMessage?.(e, Date.now() - startedAt, to);
  });
  try {
    await lead.start(host.feed);
    const maxFailed = Math.max(1, o.maxFailedTurns ?? DEFAULT_MAX_FAILED_TURNS);
    const stalled = new AbortController();
    let stallReason: string | undefined;
    const live = () => host.teammates().filter((t) => t.state !== 'stopped').map((t) => t.name);
    const stall = new StallWatch(live, maxFailed, (reasons) => {
      stallReason = stallCause(reasons, maxFailed);
      stalled.abort();
    });
    const hosted = members.map((m, i) => host.add(m.name, models[i]!, { onTurn: (t) => stall.turn(m.name, t) }));
    await Promise.all(hosted.map((h) => h.ready)); // TEAMMATE_RUNNING: another runtime reads a member's inbox
    const limit = deadline(o.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS, o.signal, stalled.signal);
    const quiet = waitUntilQuiet(stores, team, host, limit.signal);
    poke = quiet.poke;
    const finished = await quiet.done.finally(limit.dispose);
    const interrupted = !finished && o.signal?.aborted === true;
    const stuck = !finished && !interrupted && stallReason !== undefined;
    const before = await stores.team.listTasks(team);
    // Members whose model keeps failing cannot answer a shutdown_request either: they are not asked.
    const shutdown = await shutDownAll(host, members, o.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS, interrupted || stuck, o.signal);
    await lead.drain(); // the last idle notifications count in the report
    const summary = summarise(before, await stores.team.listTasks(team), members, startedAt, failures);
    const timedOut = !finished && !interrupted && !stuck;
    const end = endOf({ complete: summary.complete, timedOut, interrupted, stallReason: stuck ? stallReason : undefined, tasks: summary.tasks, before });
    return { team, root: stores.team.location, workdir, durationMs: Date.now() - startedAt, timedOut, interrupted, ...end, shutdown, ...summary, ...(await sortOutputs(stores.host, declared)) };
  } finally {
    await lead.stop(); // the last messages (shutdown answers) are reported before the caller prints the report
    await host.close();
  }
}

async function teamExists(stores: Stores, team: string): Promise<boolean> {
  return stores.team.readConfig(team).then(
    () => true,
    (err: unknown) => {
      if (isMailroomError(err, 'TEAM_NOT_FOUND')) return false;
      throw err;
    },
  );
}

/** Stops every member through the handshake; `force` skips it, and `signal` (Ctrl-C) forces the ones still waiting. */
async function shutDownAll(host: InProcessHost, members: readonly SetUpMember[], timeoutMs: number, force: boolean, signal: AbortSignal | undefined): Promise<HostStopResult[]> {
  return Promise.all(
    members.map(async (m) => {
      const result = await host.stop(m.name, { timeoutMs, reason: 'The run is complete.', force, signal });
      return result.outcome === 'rejected' ? host.stop(m.name, { force: true }) : result;
    }),
  );
}
