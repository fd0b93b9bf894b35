/**
 * Stopping a teammate from outside (`mailroom team stop`): the shutdown handshake
 * ({@link shutdownHandshake}), forced after a timeout, then the lead's teardown (member removed,
 * open tasks back to pending with no owner). A process-backend teammate's process is waited for
 * and, when forced, killed (SIGTERM, then SIGKILL); its pid record is removed. Works for any runtime
 * that serves the teammate.
 */
import { MailroomError } from '../../errors.js';
import type { TeamOptions } from '../../core/context.js';
import { requireMember } from '../../domain/roster.js';
import { isAlive, presenceOf } from '../../domain/presence.js';
import type { Member } from '../../protocol/config.js';
import { recordIsFor } from '../../protocol/member-record.js';
import { completeShutdown } from '../../core/members/shutdown.js';
import { requirePermitted } from '../../core/teams/policy.js';
import type { Stores } from '../../store/selection.js';
import { stopProcessGroup } from '../../core/processes/process-group.js';
import { livenessOf, mayBeRunning, waitUntilGone, type ProcessProber } from '../../core/processes/process-identity.js';
import type { ProcessRecord } from '../../protocol/process.js';
import { terminate } from '../process/kill.js';
import { closeMemberPane } from '../tmux/close.js';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, shutdownHandshake } from './answer.js';
import { cancelMemberCommands } from './cancel-commands.js';

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
  /**
   * Who asks for the stop (default: the lead), bound by the team policy's stopMembers. The
   * shutdown_request itself always comes from the lead, the only sender Claude Code obeys.
   */
  as?: string | undefined;
}

/** What {@link stopTeammate} waits for: the request sent, how long it waits, and whether a process record names a runtime for the teammate. */
export interface StopWait {
  /** The `requestId` of the `shutdown_request` just sent. */
  requestId: string;
  /** How long it waits for the answer before forcing the stop (ms). */
  timeoutMs: number;
  /** True when a process record (`mailroom agent`, detached or foreground) exists for the teammate. In-process teammates of `mailroom run` have none. */
  recordedProcess: boolean;
  /** True when the teammate's presence is live (working or idle): a runtime beats it, on this machine or another sharing the store. */
  present: boolean;
}

/** What {@link stopTeammate} did. */
export interface StopResult {
  name: string;
  /**
   * `approved` by the teammate, `forced` (--force), `timeout` (no answer, then forced), or
   * `not-running`: a member mailroom runs that nothing ran (no live reader claim, no live process)
   * — torn down at once, without a request nobody would answer.
   */
  outcome: 'approved' | 'forced' | 'timeout' | 'not-running';
  requestId?: string;
  /** Pid of the process that was signalled, if one was. */
  killedPid?: number;
  /** Ids of tasks that went back to pending. */
  unassigned: string[];
  /** The tmux pane (`%N`) that `team stop` killed because it was still open (tmux backend). */
  closedPane?: string;
  /** Ids of its unread messages moved to the dead letters here (their senders told); absent when none. */
  deadLettered?: string[];
  /** Pids of its running commands (task commands, a `command:` model's program) that the stop cancelled; absent when none. */
  cancelledCommands?: number[];
}

/**
 * Stops teammate `name`.
 * @throws MEMBER_NOT_FOUND, SHUTDOWN_REJECTED (the teammate said no; its reason is in the message),
 * NOT_PERMITTED (`as` may not stop members under the team policy)
 */
export async function stopTeammate(options: StopOptions): Promise<StopResult> {
  const stores = options.root;
  const config = await stores.team.readConfig(options.team);
  const member = requireMember(config, options.name, 'teammate');
  await requirePermitted(options, options.as, [{ rule: 'stopMembers', target: options.name }], config);
  if (options.force) return teardown(stores, options, member, 'forced', true);
  if (await nothingRuns(stores, options.team, member)) return teardown(stores, options, member, 'not-running', true);
  const timeoutMs = options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let cancelled: Promise<number[]> = Promise.resolve([]);
  const { requestId, answer } = await shutdownHandshake({
    store: stores,
    team: options.team,
    name: options.name,
    reason: options.reason,
    timeoutMs,
    onSent: async (id) => {
      const record = await stores.host.readProcessRecord(options.team, options.name).catch(() => undefined);
      const present = isAlive(presenceOf(options.name, await stores.team.readClaims(options.team).catch(() => []), Date.now()));
      options.onWaiting?.({ requestId: id, timeoutMs, recordedProcess: record !== undefined && (await mayBeRunning(stores.host, record)), present });
      // A teammate busy in a command reads the request only when the command ends: end it now.
      cancelled = cancelMemberCommands(stores, options.team, options.name);
    },
  });
  const cancelledCommands = await cancelled;
  if (answer.kind === 'rejected') {
    throw new MailroomError('SHUTDOWN_REJECTED', `${options.name} rejected the shutdown: ${answer.reason}. Ask again later, or stop it with --force.`, {
      details: { team: options.team, name: options.name, requestId, reason: answer.reason },
    });
  }
  const result = await teardown(stores, options, member, answer.kind === 'approved' ? 'approved' : 'timeout', answer.kind !== 'approved');
  const all = [...new Set([...cancelledCommands, ...(result.cancelledCommands ?? [])])];
  return { ...result, requestId, ...(all.length > 0 ? { cancelledCommands: all } : {}) };
}

/**
 * True for a member mailroom registered (it has a member record) whose reader claim is not live and
 * whose recorded process (if any) is gone: no runtime of it can answer a shutdown_request. A member
 * mailroom does not run (Claude Code's own) may be served by its own client: it is always asked.
 */
async function nothingRuns(stores: Stores, team: string, member: Member): Promise<boolean> {
  const [records, claims, processRecord] = await Promise.all([stores.team.readMemberRecords(team), stores.team.readClaims(team), stores.host.readProcessRecord(team, member.name).catch(() => undefined)]);
  const own = records.find((r) => r.name === member.name);
  if (!own || !recordIsFor(own, member)) return false;
  if (isAlive(presenceOf(member.name, claims, Date.now()))) return false;
  return processRecord === undefined || !(await mayBeRunning(stores.host, processRecord));
}

async function teardown(stores: Stores, o: StopOptions, member: Member, outcome: StopResult['outcome'], kill: boolean): Promise<StopResult> {
  const record = await stores.host.readProcessRecord(o.team, o.name);
  let killedPid: number | undefined;
  if (record) {
    if (await stopProcess(stores.host, record, kill)) killedPid = record.pid;
    // A process still there after SIGKILL (stuck in the kernel) keeps its record: a later stop or doctor finds it.
    if (!(await mayBeRunning(stores.host, record))) await stores.host.deleteProcessRecord(o.team, o.name);
  }
  // Its commands run in their own process groups: a killed runtime leaves them running.
  const cancelledCommands = kill ? await cancelMemberCommands(stores, o.team, o.name) : [];
  const done = await completeShutdown({ root: stores, team: o.team, name: o.name });
  // A tmux member's pane closes with its agent; one left open (its agent was killed, or kept by remain-on-exit) is closed here.
  const closedPane = member.backendType === 'tmux' && member.tmuxPaneId ? await closeMemberPane({ team: o.team, name: o.name, paneId: member.tmuxPaneId }) : false;
  return {
    name: o.name,
    outcome,
    unassigned: done.unassigned.map((t) => t.id),
    ...(killedPid !== undefined ? { killedPid } : {}),
    ...(done.deadLettered.length > 0 ? { deadLettered: done.deadLettered.map((l) => l.id) } : {}),
    ...(closedPane ? { closedPane: member.tmuxPaneId } : {}),
    ...(cancelledCommands.length > 0 ? { cancelledCommands } : {}),
  };
}

/**
 * Waits up to 5 s for the recorded process to exit (unless `kill`), then stops it: its group gets
 * SIGTERM, then SIGKILL. A pid that now belongs to another process (start time differs) is never
 * signalled; a record without a start time is trusted on its pid alone, as before start times were
 * recorded. @returns true when a process was signalled
 */
async function stopProcess(host: ProcessProber, record: ProcessRecord, kill: boolean): Promise<boolean> {
  if (!kill && (await waitUntilGone(host, record, 5_000))) return false;
  const state = await livenessOf(host, record);
  if (state === 'alive') return (await stopProcessGroup(host, record.pid, record)).signalled;
  return state === 'unverified' && (await terminate(record.pid));
}
