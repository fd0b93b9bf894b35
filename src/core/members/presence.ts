/**
 * Presence of a team's members (issue 10): each member's reader claim read back through
 * {@link presenceOf} — `working`/`idle` while its runtime beats, `stopped` when nothing holds its
 * claim, `dead` after three missed beats. The one read `team show`, `watch` and the MCP
 * `list_members` tool use.
 */
import { presenceOf, type Presence } from '../../domain/presence.js';
import type { ReaderClaim } from '../../store/team-store.js';
import { nowOf, teamOf, type TeamOptions } from '../context.js';

export type { Presence, PresenceState } from '../../domain/presence.js';
export { isAlive, presenceOf } from '../../domain/presence.js';

/**
 * A member's presence as `team show --json` and `list_members` give it (no `kind`). `unknown`: no
 * mailroom runtime runs or ran it (no reader claim, no member record — the lead, Claude Code's own
 * teammates), so there is no heartbeat to judge by; `watch` shows such a lead `unknown` too (issue 23).
 */
export interface MemberPresence {
  state: Presence['state'] | 'unknown';
  /** Epoch ms of the last heartbeat, when a claim exists. */
  lastBeatAt?: number;
  host?: string;
  pid?: number;
}

/** The JSON shape of a presence: `{ state, lastBeatAt?, host?, pid? }`. */
export function presenceView(p: Presence): MemberPresence {
  const out: MemberPresence = { state: p.state };
  if (p.lastBeatAt !== undefined) out.lastBeatAt = p.lastBeatAt;
  if (p.host !== undefined) out.host = p.host;
  if (p.pid !== undefined) out.pid = p.pid;
  return out;
}

/** Presence of each named member from the team's claims, at the options' clock. */
export function presenceByName(names: readonly string[], claims: readonly ReaderClaim[], now: number): Map<string, Presence> {
  return new Map(names.map((n) => [n, presenceOf(n, claims, now)]));
}

/** Presence of every roster member of the team. @throws TEAM_NOT_FOUND */
export async function readPresence(options: TeamOptions): Promise<Map<string, Presence>> {
  const store = teamOf(options);
  const [config, claims] = await Promise.all([store.readConfig(options.team), store.readClaims(options.team)]);
  return presenceByName(config.members.map((m) => m.name), claims, nowOf(options));
}
