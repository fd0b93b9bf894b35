/**
 * Entry of the interactive `mailroom watch`: follows the team (store watch → tracker), draws the
 * {@link WatchApp} in the terminal's alternate screen, sends messages as the lead, and restores the
 * terminal on exit. Loaded only when `watch` runs on a terminal. It writes and reads only the
 * streams the CLI adapter hands it ({@link TuiOptions}), never `process.stdout` itself.
 */
import { render, useApp, useStdout } from 'ink';
import { describeEvent } from '../core/live/watch-events.js';
import { followTeam } from '../core/live/follow.js';
import { sendMessage } from '../core/messages/send.js';
import { answerRequest } from '../core/messages/approvals.js';
import { followRequests } from '../core/live/requests-follow.js';
import type { Stores } from '../store/selection.js';
import type { TeamSnapshot } from '../core/live/snapshot.js';
import { terminalSafe } from '../core/text/terminal-text.js';
import { WatchApp } from './app.js';
import { followLeases, type FollowedLeases } from './leases-follow.js';
import { hintScope, scopeHints } from '../core/text/hint-scope.js';

import { clock } from './format.js';
import { useLiveSnapshot, useTerminalSize, type LiveState, type SnapshotSource } from './use-live-snapshot.js';

/** Options of {@link runTui}. */
export interface TuiOptions {
  store: Stores;
  team: string;
  /** Journal what is seen. */
  record: boolean;
  /** The terminal the screen is drawn on (its size is read from it), and where the closing line goes. */
  stdout: NodeJS.WriteStream;
  /** The terminal's keys. */
  stdin: NodeJS.ReadStream;
  /** Where ink reports its own errors. */
  stderr: NodeJS.WriteStream;
  /** The command line's arguments after `mailroom` (its store options are added to repair hints). */
  args: readonly string[];
}

type Answer = (id: string, approve: boolean, reason: string | undefined) => Promise<string>;

function Live({ source, onSend, onAnswer, fixCommand }: { source: SnapshotSource; onSend(to: string, text: string): Promise<string>; onAnswer: Answer; fixCommand(command: string): string }) {
  const { snapshot, status, requests, leases } = useLiveSnapshot(source);
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize(stdout);
  const { exit } = useApp();
  return <WatchApp snapshot={snapshot} status={status} columns={columns} rows={Math.max(10, rows - 1)} onSend={onSend} requests={requests} onAnswer={onAnswer} onQuit={() => exit()} fixCommand={fixCommand} leases={leases} />;
}

/** The line printed after the screen closed because Claude Code removed the team. */
function endLine(snapshot: TeamSnapshot): string {
  const location = snapshot.ended?.location;
  return `mailroom watch: team ${snapshot.team} ${describeEvent({ kind: 'team', action: 'removed', final: true, ...(location ? { location } : {}) }).replace(/^team /, '')}; watch ended.\n`;
}

/**
 * Runs the screen until `q`, or until Claude Code removes the team at the end of its session: the
 * screen then closes and one line says so (also, without opening the screen, when the team was
 * already being removed). @throws TEAM_NOT_FOUND (before the screen opens)
 */
export async function runTui(o: TuiOptions): Promise<void> {
  // A repair command with this command line's store options (`mailroom --root … doctor --fix`).
  const fixCommand = (command: string) => scopeHints(`\`${command}\``, hintScope(o.args)).slice(1, -1);
  const listeners = new Set<(state: LiveState) => void>();
  let status: string | undefined;
  let latest: TeamSnapshot | undefined;
  let leases: FollowedLeases | undefined;
  const emit = () => {
    if (latest) for (const l of listeners) l({ snapshot: latest, status, requests: requests.current(), leases: leases?.current() });
  };
  // The open requests, listed again after each change the feed reports (the answer lands in a
  // teammate's inbox, the request in the lead's); a failed listing keeps the last one.
  const requests = await followRequests({ root: o.store, team: o.team }, () => emit());
  const following = await followTeam({
    store: o.store,
    team: o.team,
    record: o.record,
    onUpdate: (u) => {
      const last = u.events.at(-1);
      status = last ? `${clock(new Date().toISOString())} ${describeEvent(last)}` : undefined;
      latest = u.snapshot;
      emit();
      void requests.refresh();
    },
  });
  latest ??= following.initial;
  // The live path leases, listed again on the team's hints and the feed's tick (./leases-follow.ts).
  const followed = await followLeases({ root: o.store, team: o.team }, following.feed, () => emit());
  leases = followed;
  const source: SnapshotSource = {
    initial: following.initial,
    subscribe: (l) => {
      listeners.add(l);
      l({ snapshot: following.current(), requests: requests.current(), leases: followed.current() });
      return () => listeners.delete(l);
    },
  };
  const onAnswer: Answer = async (id, approve, reason) => {
    const a = await answerRequest({ root: o.store, team: o.team, requestId: id, approve, reason });
    void requests.refresh();
    return `${a.approved ? 'approved' : 'denied'} ${a.request.id} (${a.request.kind}) — answer sent to ${a.request.from} at ${clock(a.sent.entry.timestamp)}`;
  };
  const onSend = async (to: string, text: string) => {
    const sent = await sendMessage({ root: o.store, team: o.team, to, text });
    return `sent to ${sent.to} at ${clock(sent.entry.timestamp)}`;
  };
  if (following.initial.ended) {
    followed.close();
    await following.close();
    o.stdout.write(terminalSafe(endLine(following.initial)));
    return;
  }
  let ended = false;
  o.stdout.write('\u001b[?1049h\u001b[H');
  try {
    const app = render(<Live source={source} onSend={onSend} onAnswer={onAnswer} fixCommand={fixCommand} />, { stdout: o.stdout, stdin: o.stdin, stderr: o.stderr, exitOnCtrlC: false });
    const stop = () => app.unmount();
    process.once('SIGTERM', stop);
    process.once('SIGHUP', stop);
    void following.ended.then(() => {
      ended = true;
      stop();
    });
    await app.waitUntilExit();
    process.off('SIGTERM', stop);
    process.off('SIGHUP', stop);
  } finally {
    o.stdout.write('\u001b[?1049l');
    followed.close();
    await following.close();
  }
  if (ended) o.stdout.write(terminalSafe(endLine(following.current())));
}
