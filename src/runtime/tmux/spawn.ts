/**
 * `team spawn --backend tmux`: the member's `mailroom agent <name>` in a new tmux window — of the
 * caller's session when it runs inside tmux (`$TMUX`), else of a detached session
 * `mailroom-<team>` that mailroom creates (or reuses) on the default server — recorded in
 * config.json as Claude Code records its tmux teammates: `backendType: "tmux"` and the pane's
 * `tmuxPaneId` (`%N`) (src/protocol/backend.ts, docs/runtime.md "Backends").
 *
 * A window, not a split pane: it leaves the caller's layout and focus alone (`-d`) and has room for
 * the agent's log lines; `tmux select-window -t %N` (or the window's name, the member's) shows it.
 */
import { randomBytes } from 'node:crypto';
import { MailroomError, isErrorCode } from '../../errors.js';
import type { TeamOptions } from '../../core/context.js';
import { requireMember } from '../../domain/roster.js';
import { assertNotRunning } from '../process/claim.js';
import { rollBackSpawn } from '../../core/members/spawn-rollback.js';
import { spawnMember, type SpawnOptions } from '../../core/members/spawn.js';
import type { Member } from '../../protocol/config.js';
import { rosterBackend } from '../../protocol/backend.js';
import { selectionArgs, selectionEnv } from '../../store/open.js';
import { CLI_PATH } from '../process/start.js';
import { START_UP_TIMEOUT_MS } from '../process/start-up.js';
import { closeMemberPane } from './close.js';
import { MEMBER_PANE_OPTION, findTmux, tmux } from './tmux.js';

/** The registered member (with its pane) and the pane's agent. */
export interface SpawnedPane {
  member: Member;
  /** The tmux pane id (`%N`) the agent runs in, as recorded in `tmuxPaneId`. */
  paneId: string;
  /** Pid of the `mailroom agent` process in the pane. */
  pid: number;
  /** The tmux session the window was added to. */
  session: string;
}

/** Options of {@link spawnTmuxTeammate}: {@link SpawnOptions} (`backend`, `paneId` ignored) and the start-up bound. */
export type TmuxSpawnOptions = SpawnOptions & {
  /** Bound of the wait for the agent's `started` line in its pane (ms; default {@link START_UP_TIMEOUT_MS}). */
  startUpTimeoutMs?: number;
};

/**
 * Finds tmux (before anything is registered), registers the member (backend `tmux`, no pane yet:
 * `tmuxPaneId: ""`, as Claude Code writes a member whose pane is not created yet), opens its window,
 * records the pane, then lets the agent start and waits for its `started` line in the pane (bounded;
 * still starting then, it is left to run). The agent waits on a tmux channel until the pane is
 * recorded and marked, so it never runs unrecorded; the pane stays open if the agent exits during
 * start-up, so its error can be read and reported. Any failure closes the pane and rolls the
 * registration back ({@link rollBackSpawn}).
 * @throws TMUX_NOT_FOUND (nothing registered), everything {@link spawnMember} throws, INTERNAL (a
 * tmux command failed, quoting it), the agent's own error code when it exited during start-up
 */
export async function spawnTmuxTeammate(options: TmuxSpawnOptions): Promise<SpawnedPane> {
  await findTmux();
  const member = await spawnMember({ ...options, backend: 'tmux', paneId: undefined });
  try {
    return await startTmuxTeammate({ root: options.root, team: options.team, name: member.name, startUpTimeoutMs: options.startUpTimeoutMs });
  } catch (err) {
    await rollBackSpawn({ root: options.root, team: options.team, member, prompt: options.prompt }).catch(() => undefined);
    throw err;
  }
}

/** Input of {@link startTmuxTeammate}. */
export interface TmuxStartOptions {
  root: TeamOptions['root'];
  team: string;
  /** A registered member. */
  name: string;
  /** As {@link TmuxSpawnOptions.startUpTimeoutMs}. */
  startUpTimeoutMs?: number | undefined;
}

/**
 * Starts registered member `name` in a new tmux window (as {@link spawnTmuxTeammate} does after
 * registering; also `team resume` of a tmux member) and records the pane in its roster entry. On
 * failure the pane is closed and the entry's `tmuxPaneId` emptied; the member stays registered.
 * @throws TMUX_NOT_FOUND, MEMBER_NOT_FOUND, TEAMMATE_RUNNING, INTERNAL (a tmux command failed), the
 * agent's own error code when it exited during start-up
 */
export async function startTmuxTeammate(options: TmuxStartOptions): Promise<SpawnedPane> {
  const bin = await findTmux();
  const store = options.root;
  const member = requireMember(await store.team.readConfig(options.team), options.name, 'teammate');
  await assertNotRunning(store, options.team, member.name);
  let paneId: string | undefined;
  try {
    const channel = `mailroom-${randomBytes(6).toString('hex')}`;
    const agent = [process.execPath, CLI_PATH, 'agent', member.name, '--team', options.team, ...selectionArgs(store.selection)];
    // The agent starts once the pane is recorded: `tmux wait-for` keeps a signal sent before it waits.
    const command = ['sh', '-c', `tmux wait-for ${channel} && exec "$@"`, 'mailroom-agent', ...agent];
    const env = Object.entries(selectionEnv(store.selection)).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const where = member.cwd !== undefined ? ['-c', member.cwd] : [];
    const opened = await openWindow(bin, options.team, member.name, [...env, ...where, '--', ...command]);
    paneId = opened.paneId;
    await tmux(bin, ['set-option', '-p', '-t', paneId, 'remain-on-exit', 'on']);
    await tmux(bin, ['set-option', '-p', '-t', paneId, MEMBER_PANE_OPTION, `${options.team}/${member.name}`]);
    const recorded = (await store.team.updateMember(options.team, member.name, { ...rosterBackend('tmux', paneId) })).value;
    await tmux(bin, ['wait-for', '-S', channel]);
    await awaitPaneStartUp(bin, paneId, member.name, opened.pid, options.startUpTimeoutMs ?? START_UP_TIMEOUT_MS);
    // From now on the pane closes when its agent exits, as a tmux teammate's does.
    await tmux(bin, ['set-option', '-p', '-t', paneId, 'remain-on-exit', 'off']);
    return { member: recorded, paneId, pid: opened.pid, session: opened.session };
  } catch (err) {
    if (paneId !== undefined) {
      await closeMemberPane({ team: options.team, name: member.name, paneId }).catch(() => undefined);
      await store.team.updateMember(options.team, member.name, { tmuxPaneId: '' }).catch(() => undefined);
    }
    throw err;
  }
}

/** tmux session names cannot hold `.` or `:`; mailroom's own session for a team. */
export function sessionFor(team: string): string {
  return `mailroom-${team.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

async function openWindow(bin: string, team: string, name: string, rest: readonly string[]): Promise<{ paneId: string; pid: number; session: string }> {
  const format = ['-P', '-F', '#{pane_id} #{pane_pid} #{session_name}'];
  let out: string;
  if (process.env['TMUX']) {
    out = await tmux(bin, ['new-window', '-d', '-n', name, ...format, ...rest]);
  } else {
    const session = sessionFor(team);
    const exists = await tmux(bin, ['has-session', '-t', `=${session}`]).then(() => true, () => false);
    out = exists
      ? await tmux(bin, ['new-window', '-d', '-t', `=${session}:`, '-n', name, ...format, ...rest])
      : await tmux(bin, ['new-session', '-d', '-s', session, '-n', name, '-x', '200', '-y', '50', ...format, ...rest]);
  }
  const [paneId, pid, ...sessionParts] = out.trim().split(' ');
  if (!paneId?.startsWith('%') || !Number.isInteger(Number(pid))) throw new MailroomError('INTERNAL', `tmux did not report the new pane (it printed "${out.trim()}").`);
  return { paneId, pid: Number(pid), session: sessionParts.join(' ') };
}

/**
 * Waits until the pane shows the agent's `<name>: started (pid N,` line (→ resolves), its process
 * exited (→ throws its error code and the pane's last lines), or `timeoutMs` passed (→ resolves:
 * left to run).
 */
async function awaitPaneStartUp(bin: string, paneId: string, name: string, pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [state, text] = await Promise.all([tmux(bin, ['display-message', '-p', '-t', paneId, '#{pane_dead} #{pane_dead_status}']), tmux(bin, ['capture-pane', '-p', '-J', '-t', paneId, '-S', '-'])]);
    if (text.includes(`${name}: started (pid ${pid},`)) return;
    const [dead, status] = state.trim().split(' ');
    if (dead === '1') throw startFailed(name, pid, paneId, status ?? '', text);
    if (Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startFailed(name: string, pid: number, paneId: string, status: string, text: string): MailroomError {
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('Pane is dead'));
  const code = [...text.matchAll(/^mailroom: ([A-Z_]+): /gm)].map((m) => m[1]!).filter(isErrorCode).at(-1) ?? 'INTERNAL';
  const tail = lines.slice(-8).join('\n');
  return new MailroomError(code, `${name} exited as it started (process ${pid} in tmux pane ${paneId}, exit code ${status || 'unknown'}); ${tail === '' ? 'it printed nothing' : `its last lines:\n${tail}`}\n${name} was removed from the team again; fix the cause and run the same \`team spawn\` command again.`, {
    details: { name, pid, paneId },
  });
}
