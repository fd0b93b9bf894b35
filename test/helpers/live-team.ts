/**
 * A team of real `mailroom agent` processes (the `worker` model) on either backend, for the
 * liveness tests (issue 21 item 3): spawn teammates, give them long tasks that record each run and
 * wait for a release file, freeze and kill processes, run CLI commands (each of which sweeps), and
 * read what the lead was told. Everything goes through the real CLI binary (dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { BIN, runCli, type CliRun } from './cli.js';
import { cleanEnv } from './store-files.js';
import { makeTempDir } from './temp-dir.js';

/** A running team; `cleanup()` releases the tasks, kills every process it started and removes the root. */
export interface LiveTeam {
  dir: string;
  env: NodeJS.ProcessEnv;
  /** `mailroom <args>` on this team; the exit code is not checked. */
  run(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<CliRun>;
  /** `mailroom <args>`, expected to exit 0; its stdout. */
  ok(...args: string[]): Promise<string>;
  /** Spawns teammate `name` as a `mailroom agent` process; its pid. */
  spawnAgent(name: string): Promise<number>;
  /** Starts `mailroom watch` (a sweeper with no presence of its own). */
  startWatch(): ChildProcess;
  /** Adds a task owned by `owner` whose command appends the runner's name to `runs-<id>` and waits for `release`. */
  addLongTask(subject: string, owner: string): Promise<void>;
  /** Names of the members that ran task `id`, one per run. */
  runsOf(id: string): Promise<string[]>;
  /** The teammates' presence states (`team show --json`). */
  states(): Promise<Record<string, string>>;
  /** The "presumed dead" messages in the lead's inbox, by sender. */
  deadMessages(): Promise<string[]>;
  /** Every task as `task list --json` gives it. */
  tasks(): Promise<Array<{ id: string; owner?: string; status: string; fencingToken?: number }>>;
  /** Env for a CLI process whose `Date.now()` runs `skewMs` ahead of the real clock (a machine with a wrong clock). */
  skewedEnv(skewMs: number): Promise<NodeJS.ProcessEnv>;
  cleanup(): Promise<void>;
}

/**
 * Creates team `s` under a fresh root; `store` is `['--store', url]` for Redis or `[]` for files.
 * `beatMs` becomes `$MAILROOM_BEAT_MS` of every process (ttl = grace = 3 beats, stall bound 24);
 * `extraEnv` is added to every process's environment.
 */
export async function liveTeam(store: readonly string[], beatMs: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<LiveTeam> {
  const root = await makeTempDir('mailroom-live-');
  const d = root.path;
  const env = { ...cleanEnv(), MAILROOM_BEAT_MS: String(beatMs), MAILROOM_TEAM: 's', ...extraEnv };
  const base = [...store, '--root', d];
  const pids: number[] = [];
  const children: ChildProcess[] = [];
  let count = 0;
  const run = (args: readonly string[], e: NodeJS.ProcessEnv = env) => runCli([...base, ...args], e);
  const ok = async (...args: string[]) => {
    const r = await run(args);
    expect(r.code, `mailroom ${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };
  await ok('team', 'create', 's');
  return {
    dir: d,
    env,
    run,
    ok,
    async spawnAgent(name) {
      const out = await ok('team', 'spawn', name, '--backend', 'process', '--model', 'worker', '--cwd', d);
      const pid = Number(/as process (\d+)/.exec(out)?.[1]);
      expect(pid, out).toBeGreaterThan(0);
      pids.push(pid);
      return pid;
    },
    startWatch() {
      const child = spawn(process.execPath, [BIN, ...base, 'watch', 's'], { env, stdio: 'ignore' });
      children.push(child);
      return child;
    },
    async addLongTask(subject, owner) {
      count++;
      await ok('task', 'add', subject, '--owner', owner, '--metadata', `command=echo "$MAILROOM_AGENT" >> "${d}/runs-${count}"; while [ ! -f "${d}/release" ] && [ -d "${d}" ]; do sleep 0.05; done`);
    },
    async runsOf(id) {
      const text = await readFile(join(d, `runs-${id}`), 'utf8').catch(() => '');
      return text.split('\n').filter((l) => l !== '');
    },
    async states() {
      const show = JSON.parse(await ok('team', 'show', '--json')) as { members: Array<{ name: string; presence: { state: string } }> };
      return Object.fromEntries(show.members.filter((m) => m.name !== 'team-lead').map((m) => [m.name, m.presence.state]));
    },
    async deadMessages() {
      const inbox = JSON.parse(await ok('inbox', '--json')) as { messages: Array<{ entry: { from: string; text: string } }> };
      return inbox.messages.filter((m) => m.entry.text.includes('presumed dead')).map((m) => m.entry.from);
    },
    async tasks() {
      return (JSON.parse(await ok('task', 'list', '--json')) as Array<{ task: { id: string; owner?: string; status: string; fencingToken?: number } }>).map((t) => t.task);
    },
    async skewedEnv(skewMs) {
      const preload = join(d, `skew-${skewMs}.mjs`);
      await writeFile(preload, `const real = Date.now.bind(Date);\nDate.now = () => real() + ${skewMs};\n`);
      return { ...env, NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` };
    },
    async cleanup() {
      await writeFile(join(d, 'release'), '').catch(() => undefined);
      for (const c of children) c.kill('SIGKILL');
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGCONT');
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await root.cleanup();
    },
  };
}

/** True once `path` exists. */
export const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

/** Waits `ms`: a fault's duration (how long a process or the store stays frozen), never an assertion. */
export const hold = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** True when every state is working or idle. */
export const allBeating = (states: Record<string, string>): boolean => Object.values(states).every((s) => s === 'working' || s === 'idle');
