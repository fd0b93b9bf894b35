/**
 * The process backend: a teammate as its own detached `mailroom agent <name>` process, with its
 * pid (and start time) recorded in `teams/<team>/processes/<name>.json` and its output appended to
 * `teams/<team>/logs/<name>.log`. The member itself is registered by `spawnMember` beforehand.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MailroomError } from '../../errors.js';
import { requireMember } from '../../core/members.js';
import { identify } from '../../core/process-identity.js';
import type { ProcessRecord } from '../../protocol/process.js';
import type { Store } from '../../store/store.js';
import { assertNotRunning, claimTeammate } from './claim.js';
import { terminate } from './kill.js';

/** Input of {@link startProcessTeammate}. */
export interface ProcessStartOptions {
  /** The store; it must live on the local disk (its `root` is passed to the child). */
  root: Store;
  team: string;
  /** Registered member to run. */
  name: string;
  /** Model spec for the process (default: the member's `model`, else worker). */
  model?: string;
  /** Extra environment for the child (added to this process's environment). */
  env?: Readonly<Record<string, string>>;
}

/** The CLI entry the child runs (`bin/mailroom.js`, two levels above this module's directory). */
export const CLI_PATH = fileURLToPath(new URL('../../../bin/mailroom.js', import.meta.url));

/**
 * Starts the detached `mailroom agent <name>` process and records its pid (with its start time)
 * and log file. The record is claimed under its lock (the child claims it too, as its own): if
 * another runtime of the member claimed it meanwhile, the child is stopped and the start refused.
 * @returns the record written.
 * @throws MEMBER_NOT_FOUND, TEAMMATE_RUNNING (a recorded `mailroom agent` process — detached or
 * foreground — may still run)
 */
export async function startProcessTeammate(options: ProcessStartOptions): Promise<ProcessRecord & { logFile: string }> {
  const { root: store, team, name } = options;
  const member = requireMember(await store.readConfig(team), name, 'teammate');
  await assertNotRunning(store, team, name);
  const argv = [process.execPath, CLI_PATH, 'agent', name, '--team', team, '--root', store.root, ...(options.model ? ['--model', options.model] : [])];
  const log = await store.openAgentLog(team, name);
  try {
    const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', log.fd, log.fd], cwd: member.cwd, env: { ...process.env, ...options.env } });
    const pid = await spawned(child);
    child.unref();
    const startTime = (await identify(pid))?.startTime;
    const record = { team, agent: name, pid, ...(startTime !== undefined ? { startTime } : {}), logFile: log.path, startedAt: Date.now(), argv, ...(options.model ? { model: options.model } : {}) };
    await claimTeammate(store, team, name, record).catch(async (err: unknown) => {
      await terminate(pid);
      throw err;
    });
    return record;
  } finally {
    await log.close();
  }
}

function spawned(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child.pid!));
    child.once('error', (err) => reject(new MailroomError('INTERNAL', `Could not start the teammate process: ${err.message}`, { cause: err })));
  });
}
