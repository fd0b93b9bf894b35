/**
 * Stopping a teammate from outside (`mailroom team stop`): the shutdown handshake
 * ({@link shutdownHandshake}), forced after a timeout, then the lead's teardown (member removed,
 * open tasks back to pending with no owner). A process-backend teammate's process is waited for
 * and, when forced, killed (SIGTERM, then SIGKILL); its pid record is removed. Works for any runtime
 * that serves the teammate.
 */
import { MailroomError } from '../../errors.js';
import { storeOf, type TeamOptions } from '../../core/context.js';
import { requireMember } from '../../core/members.js';
import { completeShutdown } from '../../core/shutdown.js';
import type { Stores } from '../../store/selection.js';
import { stopProcessGroup } from '../../core/process-group.js';
import { livenessOf, mayBeRunning, waitUntilGone } from '../../core/process-identity.js';
import type { ProcessRecord } from '../../protocol/process.js';
import { terminate } from '../process/kill.js';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, shutdownHandshake } from './answer.js';

/** Input of {@link stopTeammate}. */
export interface StopOptions extends TeamOptions {
  name: string;
  /** Skip the handshake: kill the process (if any) and tear down at once. */
  force?: boolean;
  /** How long the teammate gets to answer (ms, default 30 000); then the stop is forced. */
  timeoutMs?: number;
  /** Reason sent in the shutdown_request. */
  reason?: string;
  /** Called once the request is sent, before the wait (e.g. to tell a person what is happening). */
  onWaiting?: (wait: StopWait) => void;
}

/** What {@link stopTeammate} waits for: the request sent, how long it waits, and whether a process record names a runtime for the teammate. */
export interface StopWait {
  /** The `requestId` of the `shutdown_request` just sent. */
  requestId: string;
  /** How long it waits for the answer before forcing the stop (ms). */
  timeoutMs: number;
  /** True when a process record (`mailroom agent`, detached or foreground) exists for the teammate. In-process teammates of `mailroom run` have none. */
  recordedProcess: boolean;
}

/** What {@link stopTeammate} did. */
export interface StopResult {
  name: string;
  /** `approved` by the teammate, `forced` (--force), or `timeout` (no answer, then forced). */
  outcome: 'approved' | 'forced' | 'timeout';
  requestId?: string;
  /** Pid of the process that was signalled, if one was. */
  killedPid?: number;
  /** Ids of tasks that went back to pending. */
  unassigned: string[];
}

/**
 * Stops teammate `name`.
 * @throws MEMBER_NOT_FOUND, SHUTDOWN_REJECTED (the teammate said no; its reason is in the message)
 */
export async function stopTeammate(options: StopOptions): Promise<StopResult> {
  const stores = storeOf(options.root);
  requireMember(await stores.team.readConfig(options.team), options.name, 'teammate');
  if (options.force) return teardown(stores, options, 'forced', true);
  const timeoutMs = options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const { requestId, answer } = await shutdownHandshake({
    store: stores,
    team: options.team,
    name: options.name,
    reason: options.reason,
    timeoutMs,
    onSent: async (id) => {
      const record = await stores.host.readProcessRecord(options.team, options.name).catch(() => undefined);
      options.onWaiting?.({ requestId: id, timeoutMs, recordedProcess: record !== undefined && (await mayBeRunning(record)) });
    },
  });
  if (answer.kind === 'rejected') {
    throw new MailroomError('SHUTDOWN_REJECTED', `${options.name} rejected the shutdown: ${answer.reason}. Ask again later, or stop it with --force.`, {
      details: { team: options.team, name: options.name, requestId, reason: answer.reason },
    });
  }
  const result = await teardown(stores, options, answer.kind === 'approved' ? 'approved' : 'timeout', answer.kind !== 'approved');
  return { ...result, requestId };
}

async function teardown(stores: Stores, o: StopOptions, outcome: StopResult['outcome'], kill: boolean): Promise<StopResult> {
  const record = await stores.host.readProcessRecord(o.team, o.name);
  let killedPid: number | undefined;
  if (record) {
    if (await stopProcess(record, kill)) killedPid = record.pid;
    // A process still there after SIGKILL (stuck in the kernel) keeps its record: a later stop or doctor finds it.
    if (!(await mayBeRunning(record))) await stores.host.deleteProcessRecord(o.team, o.name);
  }
  const done = await completeShutdown({ root: stores, team: o.team, name: o.name });
  return { name: o.name, outcome, unassigned: done.unassigned.map((t) => t.id), ...(killedPid !== undefined ? { killedPid } : {}) };
}

/**
 * Waits up to 5 s for the recorded process to exit (unless `kill`), then stops it: its group gets
 * SIGTERM, then SIGKILL. A pid that now belongs to another process (start time differs) is never
 * signalled; a record without a start time is trusted on its pid alone, as before start times were
 * recorded. @returns true when a process was signalled
 */
async function stopProcess(record: ProcessRecord, kill: boolean): Promise<boolean> {
  if (!kill && (await waitUntilGone(record, 5_000))) return false;
  const state = await livenessOf(record);
  if (state === 'alive') return (await stopProcessGroup(record.pid, record)).signalled;
  return state === 'unverified' && (await terminate(record.pid));
}
