/**
 * Closing a tmux-backend member's pane (`team stop`, a failed spawn). Only a pane that mailroom
 * marked as this member's (pane option `@mailroom-member` = `<team>/<name>`) is killed: a pane id
 * is only unique within one tmux server, and the caller's server may not be the spawner's.
 */
import { findTmux, MEMBER_PANE_OPTION, tmux } from './tmux.js';

/** Which pane to close. */
export interface MemberPane {
  team: string;
  name: string;
  /** The member's `tmuxPaneId` (`%N`). */
  paneId: string;
}

/**
 * Kills the member's pane if it still exists on the caller's tmux server and is marked as the
 * member's. @returns true when a pane was killed (false: no tmux, no such pane, or not the member's)
 */
export async function closeMemberPane(pane: MemberPane): Promise<boolean> {
  const bin = await findTmux().catch(() => undefined);
  if (bin === undefined || !pane.paneId.startsWith('%')) return false;
  const mark = await tmux(bin, ['display-message', '-p', '-t', pane.paneId, `#{${MEMBER_PANE_OPTION}}`]).catch(() => undefined);
  if (mark?.trim() !== `${pane.team}/${pane.name}`) return false;
  return tmux(bin, ['kill-pane', '-t', pane.paneId]).then(() => true, () => false);
}
