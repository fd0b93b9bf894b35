/**
 * Ctrl-C during a wait that follows a send (`team ask`, `team send --wait …`): the message is
 * already in the recipient's inbox, so exiting silently (as a plain SIGINT does, exit 130) hides
 * that. While such a wait runs, SIGINT prints one line on stderr — the message was sent (its
 * msg_id), only the wait was interrupted, and how to check later (`mailroom message show <id>`) —
 * then exits 130. A SIGINT that comes before the send has settled is held until it does (a second
 * one exits at once, printing nothing: the send's outcome is then unknown).
 */
import { terminalSafe } from '../core/text/terminal-text.js';
import { hintScope, scopeHints } from '../core/text/hint-scope.js';
import { writeStderr } from './output.js';

/** The exit code of a command interrupted by SIGINT (128 + 2, as a shell reports it). */
export const INTERRUPTED_EXIT_CODE = 130;

/** A wait guarded by {@link guardWait}: say when the message was sent; dispose when the wait ends. */
export interface GuardedWait {
  /** The message is stored: from now on SIGINT prints the line naming `msgId`. */
  sent(msgId: string, to: string): void;
  /** Removes the SIGINT handler (call in `finally`). */
  dispose(): void;
}

/**
 * Guards the send-then-wait of a command: `waitingFor` names what was being waited for (e.g.
 * `its reply`, `it to be read`). The line: `mailroom: interrupted: the message to bob was sent
 * (msg_id …); only the wait for its reply was interrupted. Check it later with \`mailroom message show …\`.`
 */
export function guardWait(waitingFor: string): GuardedWait {
  let sentTo: { msgId: string; to: string } | undefined;
  let interrupted = false;
  const finish = (s: { msgId: string; to: string }) => {
    const line = `mailroom: interrupted: the message to ${s.to} was sent (msg_id ${s.msgId}); only the wait for ${waitingFor} was interrupted. Check it later with \`mailroom message show ${s.msgId}\`.`;
    writeStderr(`${terminalSafe(scopeHints(line, hintScope(process.argv.slice(2))))}\n`, () => process.exit(INTERRUPTED_EXIT_CODE));
  };
  const onSignal = () => {
    if (sentTo !== undefined) finish(sentTo);
    else if (interrupted) process.exit(INTERRUPTED_EXIT_CODE);
    else interrupted = true;
  };
  process.on('SIGINT', onSignal);
  return {
    sent(msgId, to) {
      sentTo = { msgId, to };
      if (interrupted) finish(sentTo);
    },
    dispose() {
      process.off('SIGINT', onSignal);
    },
  };
}
