/**
 * The process backend: a teammate as its own detached `mailroom agent <name>` process, with its
 * pid (and start time) recorded in `teams/<team>/processes/<name>.json` and its output appended to
 * `teams/<team>/logs/<name>.log`. The member itself is registered by `spawnMember` beforehand.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MailroomError } from '../../errors.js';
import type { StoreRef } from '../../core/context.js';
import { requireMember } from '../../domain/roster.js';
import { identify } from '../../core/processes/process-identity.js';
import type { ProcessRecord } from '../../protocol/process.js';
import { selectionArgs, selectionEnv } from '../../store/open.js';
import type { Stores } from '../../store/selection.js';
import { assertNotRunning, claimTeammate } from './claim.js';
import { terminate } from './kill.js';
import { START_UP_TIMEOUT_MS, awaitStartUp } from './start-up.js';

/** Input of {@link startProcessTeammate}. */
export interface ProcessStartOptions {
  /** The stores; the child gets the same selection (`selectionArgs`/`selectionEnv`). */
  root: StoreRef;
  team: string;
  /** Registered member to run. */
  name: string;
  /** Model spec for the process (default: the member's `model`, else worker). */
  model?: string;
  /** Extra environment for the child (added to this process's environment). */
  env?: Readonly<Record<string, string>>;
  /** Bound of the wait for the child's `started` log line, ms (default {@link START_UP_TIMEOUT_MS}). */
  startUpTimeoutMs?: number;
}

/** The CLI entry the child runs (`bin/mailroom.js`, two levels above this module's directory). */
export const CLI_PATH = fileURLToPath(new URL('../../../bin/mailroom.js', import.meta.url));

/**
 * Starts the detached `mailroom agent <name>` process and records its pid (with its start time)
 * and log file. The record is claimed under its lock (the child claims it too, as its own): if
 * another runtime of the member claimed it meanwhile, the child is stopped and the start refused.
 * It then waits until the child logs its `started` line or exits ({@link awaitStartUp}, bounded:
 * a child still starting after the bound is left to run). A child that exits first has its record
 * removed and the start fails.
 * @returns the record written.
 * @throws MEMBER_NOT_FOUND, TEAMMATE_RUNNING (a recorded `mailroom agent` process — detached or
 * foreground — may still run), INTERNAL (the child could not be started), the child's own error
 * code when it exited during start-up (e.g. INVALID_ARGUMENT for a missing script file)
 */
export async function startProcessTeammate(options: ProcessStartOptions): Promise<ProcessRecord & { logFile: string }> {
  const { team, name } = options;
  const store = options.root;
  const member = requireMember(await store.team.readConfig(team), name, 'teammate');
  await assertNotRunning(store, team, name);
  const argv = [process.execPath, CLI_PATH, 'agent', name, '--team', team, ...selectionArgs(store.selection), ...(options.model ? ['--model', options.model] : [])];
  const log = await store.host.openAgentLog(team, name);
  try {
    const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', log.fd, log.fd], cwd: member.cwd, env: { ...process.env, ...selectionEnv(store.selection), ...options.env } });
    const pid = await spawned(child, member.cwd);
    try {
      const startTime = (await identify(store.host, pid))?.startTime;
      const record = { team, agent: name, pid, ...(startTime !== undefined ? { startTime } : {}), logFile: log.location, startedAt: Date.now(), argv, ...(options.model ? { model: options.model } : {}) };
      await claimTeammate(store, team, name, record).catch(async (err: unknown) => {
        await terminate(pid);
        throw err;
      });
      await awaitStartUp(child, { store: store.host, team, name, pid, logFile: log.location, from: log.size, timeoutMs: options.startUpTimeoutMs }).catch(async (err: unknown) => {
        await forgetRecord(store, team, name, pid);
        throw err;
      });
      return record;
    } finally {
      child.unref();
    }
  } finally {
    await log.close();
  }
}

async function forgetRecord(store: Stores, team: string, name: string, pid: number): Promise<void> {
  if ((await store.host.readProcessRecord(team, name))?.pid === pid) await store.host.deleteProcessRecord(team, name);
}

function spawned(child: ReturnType<typeof spawn>, cwd: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child.pid!));
    const where = cwd === undefined ? '' : ` (working directory ${cwd}: check that it exists)`;
    child.once('error', (err) => reject(new MailroomError('INTERNAL', `Could not start the teammate process${where}: ${err.message}`, { cause: err })));
  });
}
