/**
 * One `mailroom agent` process per member: its pid record (`HostStore.claimProcessRecord`) is
 * claimed before the teammate runs — by the detached child's starter and by the agent process
 * itself, foreground or detached — and a claim is refused while another recorded process may still
 * run on this machine. A record whose process is gone, or whose pid now belongs to another process
 * (start time differs), is stale and replaced. (The member's reader claim, which every kind of
 * reader holds, is taken as the teammate starts: core/members/reader-claim.ts.)
 */
import { MailroomError } from '../../errors.js';
import type { StoreRef } from '../../core/context.js';
import { hostOf } from '../../core/context.js';
import { identify, mayBeRunning } from '../../core/processes/process-identity.js';
import type { ProcessRecord } from '../../protocol/process.js';

/**
 * Writes `record` as the member's pid record.
 * @throws TEAMMATE_RUNNING naming the pid that holds it and how to stop it
 */
export async function claimTeammate(root: StoreRef, team: string, name: string, record: ProcessRecord): Promise<void> {
  const holder = await hostOf({ root }).claimProcessRecord(team, name, record);
  if (holder) throw teammateRunning(team, name, holder);
}

/** The member's recorded process when it may still run, else undefined. */
export async function runningTeammate(root: StoreRef, team: string, name: string): Promise<ProcessRecord | undefined> {
  const host = hostOf({ root });
  const record = await host.readProcessRecord(team, name);
  return record && (await mayBeRunning(host, record)) ? record : undefined;
}

/** Throws {@link teammateRunning} when the member's recorded process may still run. */
export async function assertNotRunning(root: StoreRef, team: string, name: string): Promise<void> {
  const holder = await runningTeammate(root, team, name);
  if (holder) throw teammateRunning(team, name, holder);
}

/** The record of this process as `mailroom agent <name>` (argv: this process's command line). */
export async function ownAgentRecord(root: StoreRef, team: string, name: string, model?: string): Promise<ProcessRecord> {
  const self = await identify(hostOf({ root }), process.pid);
  return {
    team,
    agent: name,
    pid: process.pid,
    ...(self?.startTime !== undefined ? { startTime: self.startTime } : {}),
    ...(model ? { model } : {}),
    startedAt: Date.now(),
    argv: process.argv,
  };
}

/** TEAMMATE_RUNNING (exit 4): two runtimes on one inbox would both consume and answer it. */
export function teammateRunning(team: string, name: string, holder: ProcessRecord): MailroomError {
  const how = holder.logFile !== undefined ? `detached, log ${holder.logFile}` : 'in the foreground';
  return new MailroomError('TEAMMATE_RUNNING', `${name} already runs as process ${holder.pid} (${how}, started ${new Date(holder.startedAt).toISOString()}); a second runtime would consume the same inbox. Stop it first: \`mailroom team stop ${name}\`.`, {
    details: { team, name, pid: holder.pid, holder: { kind: 'agent', pid: holder.pid, startedAt: holder.startedAt } },
  });
}
