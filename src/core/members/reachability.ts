/**
 * Whether a member can act on its inbox now — the one rule `team ask` (core/messages/ask.ts) and
 * `team send --wait` (core/messages/delivery-status.ts) both apply before waiting on it. A member
 * is unreachable when its runtime stopped beating (presence `dead`), or when mailroom runs it (it
 * has a member record for this incarnation) and nothing runs it now (presence `stopped`: no
 * `mailroom agent` process, no in-process teammate, no MCP session holds its reader claim).
 * Claude Code's own members hold no reader claim, so their presence says nothing: they count as
 * reachable (src/domain/presence.ts).
 */
import type { Member, TeamConfig } from '../../protocol/config.js';
import { recordIsFor } from '../../protocol/member-record.js';
import { isAlive, presenceOf, type Presence } from '../../domain/presence.js';
import type { TeamStore } from '../../store/team-store.js';
import { isoTime } from '../context.js';

/**
 * The presence of `member` when it cannot act on its inbox now (`dead`, or `stopped` for a member
 * mailroom runs), else undefined (it runs, or it is a Claude Code member whose presence is unknown).
 */
export async function unreachablePresence(store: TeamStore, config: TeamConfig, member: Member): Promise<Presence | undefined> {
  const presence = presenceOf(member.name, await store.readClaims(config.name), Date.now());
  if (isAlive(presence)) return undefined;
  if (presence.state === 'stopped' && !(await runsUnderMailroom(store, config.name, member))) return undefined;
  return presence;
}

/** Why an unreachable member cannot act, as a clause: `its runtime stopped beating at … (presence: dead)` or `nothing runs it now (presence: stopped)`. */
export function unreachableWhy(presence: Presence): string {
  return presence.state === 'dead' ? `its runtime stopped beating${presence.lastBeatAt ? ` at ${isoTime(presence.lastBeatAt)}` : ''} (presence: dead)` : 'nothing runs it now (presence: stopped)';
}

async function runsUnderMailroom(store: TeamStore, team: string, member: Member): Promise<boolean> {
  return (await store.readMemberRecords(team)).some((r) => r.name === member.name && recordIsFor(r, member));
}
