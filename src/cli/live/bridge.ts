/**
 * The `bridge` command's run: chooses the two sides from the global options (the local side is the
 * filesystem root `--claude`/`--root` names; the shared side the `--store` Redis URL), prints one
 * line per status (JSON lines with `--json`), and runs until SIGINT/SIGTERM. A shared store that
 * cannot be reached at start is retried with backoff and said so; the local team keeps working.
 */
import { terminalSafe } from '../../core/text/terminal-text.js';
import { startBridge, type BridgeStatus } from '../../bridge/bridge.js';
import { claimBridge } from '../../bridge/one-bridge.js';
import { checkSelectionFlags } from '../option-checks.js';
import { MailroomError } from '../../errors.js';
import { openFsStores, openStores, redactUrl, resolveSelection } from '../../store/open.js';
import type { StoreSelection, Stores } from '../../store/selection.js';
import type { GlobalArgs } from '../globals.js';
import { untilStopped, writeLine } from './stop.js';
import { writeStderr } from '../output.js';

/**
 * Runs the bridge until stopped.
 * @throws INVALID_ARGUMENT (no team, or a store that is not Redis), FILE_CORRUPT (saved state unreadable)
 */
export async function runBridgeCommand(a: GlobalArgs): Promise<void> {
  const team = a.team ?? process.env.MAILROOM_TEAM;
  if (team === undefined || team === '') throw new MailroomError('INVALID_ARGUMENT', 'mailroom bridge needs the team to bridge: pass --team <name> (or set $MAILROOM_TEAM).');
  checkSelectionFlags(a, { bridge: true });
  const selection = resolveSelection({ store: a.store, root: a.root, claude: a.claude });
  if (selection.kind !== 'redis') {
    throw new MailroomError('INVALID_ARGUMENT', 'mailroom bridge connects the local Claude Code team to a shared Redis store: pass --store redis://host:port (or set $MAILROOM_STORE), with --claude for Claude Code\'s own directory.');
  }
  const say = (s: BridgeStatus | { kind: 'started'; local: string; store: string }) => writeLine(a.json ? JSON.stringify(s) : describe(s));
  const local = openFsStores(selection.hostRoot, { lock: { onWarning: (m) => writeStderr(`${terminalSafe(m)}\n`) } });
  // One bridge per root and team: a second is refused (BRIDGE_RUNNING) before anything syncs.
  const release = await claimBridge(local.host, team);
  try {
    await bridgeUntilStopped(a, team, selection, local, say);
  } finally {
    await release();
  }
}

async function bridgeUntilStopped(a: GlobalArgs, team: string, selection: Extract<StoreSelection, { kind: 'redis' }>, local: Stores, say: (s: BridgeStatus | { kind: 'started'; local: string; store: string }) => void): Promise<void> {
  let stopping = false;
  const stopped = untilStopped().then(() => {
    stopping = true;
  });
  let remote: Stores | undefined;
  for (let delay = 250; !remote && !stopping; delay = Math.min(delay * 2, 5_000)) {
    try {
      remote = await openStores(selection);
    } catch (err) {
      if (!(err instanceof MailroomError && err.code === 'STORE_UNAVAILABLE')) throw err;
      say({ kind: 'offline', error: err.message, retryInMs: delay });
      await Promise.race([new Promise((r) => setTimeout(r, delay)), stopped]);
    }
  }
  if (!remote) return;
  try {
    const bridge = await startBridge({ team, local: local.team, host: local.host, remote: remote.team, onStatus: say });
    say({ kind: 'started', local: selection.hostRoot, store: redactUrl(selection.url) });
    // The bridge notices dead members of the shared team too, on its own timer (issue 23 item 1).
    const { startSweeper } = await import('../../core/members/dead-members.js');
    const sweeper = startSweeper({ root: remote, team });
    await stopped;
    sweeper.close();
    await bridge.stop();
  } finally {
    await remote.close();
  }
}

function describe(s: BridgeStatus | { kind: 'started'; local: string; store: string }): string {
  switch (s.kind) {
    case 'started':
      return `bridging ${s.local} ⇄ ${s.store} (Ctrl-C stops)`;
    case 'online':
      return 'shared store reachable again: caught up';
    case 'offline':
      return `shared store unreachable (${s.error}); the local team keeps working; retrying in ${s.retryInMs} ms`;
    case 'local-missing':
      return 'the local team is gone (Claude Code cleaned it up); the shared team is kept';
    case 'synced':
      return `${s.member}: ${s.toRemote} out, ${s.toLocal} in, ${s.readRemote + s.readLocal} marked read`;
    case 'roster':
      return `members changed: ${s.changed.join(', ')}`;
    case 'tasks':
      return `tasks: ${s.toRemote} out, ${s.toLocal} in${s.conflicts.length > 0 ? `; shared store won for #${s.conflicts.join(', #')} (local edit journalled)` : ''}`;
    case 'archived':
      return `${s.member}: ${s.moved} read message(s) moved to its archive`;
    case 'warning':
      return `warning: ${s.message}`;
  }
}
