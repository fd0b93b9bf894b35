/**
 * {@link runShell} for a teammate, with the running command recorded in the store
 * (`CommandRecord`: its pid, process group and start time, and this runtime's identity) from the
 * moment it started until it ended. A runtime that is killed outright (SIGKILL, OOM killer) cannot
 * stop its commands; the record lets the team's next runtime or `mailroom doctor --fix` do it
 * (core/processes/orphan-commands.ts). The record is removed before this resolves.
 *
 * A runtime killed in the few milliseconds between the command's start and the record's write
 * leaves that command unrecorded. A record that cannot be written does not stop the command: a
 * process warning (`MAILROOM_COMMAND_RECORD`) says so.
 */
import { identify, ownIdentity } from '../core/processes/process-identity.js';
import type { CommandRecord } from '../protocol/command.js';
import type { Stores } from '../store/selection.js';
import { runShell, type ShellOptions, type ShellResult } from './shell.js';

/** Whose command it is. */
export interface CommandOwnerRef {
  store: Stores;
  team: string;
  /** Member name of the teammate running it. */
  agent: string;
  /** The task whose `metadata.command` it is (absent for a `command:` model's program). */
  taskId?: string;
}

/** Runs the command as {@link runShell} does, recorded while it runs. Never rejects. */
export async function runRecordedShell(ref: CommandOwnerRef, options: ShellOptions): Promise<ShellResult> {
  let recorded: Promise<CommandRecord | undefined> = Promise.resolve(undefined);
  const result = await runShell({
    ...options,
    onSpawn: (pid) => {
      recorded = record(ref, options.command, pid);
      options.onSpawn?.(pid);
    },
  });
  const written = await recorded;
  if (written) await ref.store.host.deleteCommandRecord(ref.team, written.pid).catch((err: unknown) => warn(`could not remove the record of command pid ${written.pid}`, err));
  return result;
}

async function record(ref: CommandOwnerRef, command: string, pid: number): Promise<CommandRecord | undefined> {
  try {
    const [self, owner] = await Promise.all([identify(ref.store.host, pid), ownIdentity(ref.store.host)]);
    if (!self) return undefined; // already over: nothing left to reap
    const entry: CommandRecord = {
      team: ref.team,
      agent: ref.agent,
      ...(ref.taskId !== undefined ? { taskId: ref.taskId } : {}),
      command,
      pid,
      pgid: pid,
      ...(self.startTime !== undefined ? { startTime: self.startTime } : {}),
      startedAt: Date.now(),
      owner,
    };
    await ref.store.host.writeCommandRecord(entry);
    return entry;
  } catch (err) {
    warn(`could not record command pid ${pid} of ${ref.agent} (it runs unrecorded: if this runtime is killed, nothing will stop it)`, err);
    return undefined;
  }
}

function warn(what: string, err: unknown): void {
  process.emitWarning(`mailroom ${what}: ${err instanceof Error ? err.message : String(err)}`, { code: 'MAILROOM_COMMAND_RECORD' });
}
