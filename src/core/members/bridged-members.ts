/**
 * Which members of a Claude Code root's team `mailroom bridge` brought in from the shared store
 * (docs/bridge.md "Members"): those the bridge's saved state on this machine (src/bridge/state.ts,
 * `members: { name: "local" | "remote" }`) records with origin `remote`. They run on another
 * machine; on this root they hold no presence, only the `isActive` the bridge copies. Only a
 * filesystem root is a bridge's local side, so another store has none.
 */
import { MailroomError } from '../../errors.js';
import type { Stores } from '../../store/selection.js';

/** The names of the bridged-in members of `team` (empty without a bridge). @throws FILE_CORRUPT (the bridge's saved state is not JSON) */
export async function bridgedMembers(stores: Stores, team: string): Promise<Set<string>> {
  if (stores.selection.kind !== 'fs') return new Set();
  const text = await stores.host.readBridgeState(team);
  if (text === undefined) return new Set();
  let members: unknown;
  try {
    members = (JSON.parse(text) as { members?: unknown }).members;
  } catch (err) {
    throw new MailroomError('FILE_CORRUPT', `The saved state of the bridge of team "${team}" in ${stores.host.location}/mailroom/bridge is not JSON: move it aside (the bridge starts over).`, { cause: err });
  }
  if (typeof members !== 'object' || members === null) return new Set();
  return new Set(Object.entries(members).filter(([, origin]) => origin === 'remote').map(([name]) => name));
}
