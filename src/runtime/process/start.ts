/**
 * The process backend: a teammate as its own detached `mailroom agent <name>` process, with its
 * pid recorded in `teams/<team>/processes/<name>.json` and its output appended to
 * `teams/<team>/logs/<name>.log`. The member itself is registered by `spawnMember` beforehand.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MailroomError } from '../../errors.js';
import { requireMember } from '../../core/members.js';
import type { ProcessRecord } from '../../protocol/process.js';
import type { Store } from '../../store/store.js';
import { isAlive } from './kill.js';

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
 * Starts the detached `mailroom agent <name>` process and records its pid and log file.
 * @returns the record written.
 * @throws MEMBER_NOT_FOUND, TEAMMATE_RUNNING (a recorded process is still alive)
 */
export async function startProcessTeammate(options: ProcessStartOptions): Promise<ProcessRecord> {
  const { root: store, team, name } = options;
  const member = requireMember(await store.readConfig(team), name, 'teammate');
  const running = await store.readProcessRecord(team, name);
  if (running && isAlive(running.pid)) {
    throw new MailroomError('TEAMMATE_RUNNING', `${name} already runs as process ${running.pid} (log ${running.logFile}). Stop it first: mailroom team stop ${name}.`, {
      details: { team, name, pid: running.pid },
    });
  }
  const argv = [process.execPath, CLI_PATH, 'agent', name, '--team', team, '--root', store.root, ...(options.model ? ['--model', options.model] : [])];
  const log = await store.openAgentLog(team, name);
  try {
    const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', log.fd, log.fd], cwd: member.cwd, env: { ...process.env, ...options.env } });
    const pid = await spawned(child);
    child.unref();
    const record: ProcessRecord = { team, agent: name, pid, logFile: log.path, startedAt: Date.now(), argv, ...(options.model ? { model: options.model } : {}) };
    await store.writeProcessRecord(team, name, record);
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
