/**
 * Presence (issue 10): who is alive, derived from reader claims. A running member — in-process
 * teammate, `mailroom agent`, `mailroom mcp` session — holds its reader claim and beats it every
 * {@link BEAT_INTERVAL_MS} with its state; presence is that claim read back. Pure rules, shared by
 * core (team show, watch, MCP list_members), routing, asks and the bridge, on every backend.
 */
import { BEAT_INTERVAL_MS, isLiveClaim } from './reader-claims.js';

export { BEAT_INTERVAL_MS };

/**
 * What a member is doing: `working`/`idle` while its runtime beats; `stopped` when nothing holds its
 * claim (it left, or never started); `dead` when its claim missed three beats (its ttl).
 */
export type PresenceState = 'working' | 'idle' | 'stopped' | 'dead';

/** A member's presence as `team show --json` gives it. `lastBeatAt` is epoch ms. */
export interface Presence {
  state: PresenceState;
  lastBeatAt?: number | undefined;
  host?: string | undefined;
  pid?: number | undefined;
  /** What runtime holds the claim. */
  kind?: 'agent' | 'mcp' | 'in-process' | undefined;
}

/** The subset of a stored reader claim presence looks at (see TeamStore.readClaims). */
export interface PresenceClaim {
  member: string;
  state: 'working' | 'idle';
  lastBeatAt: number;
  ttlMs: number;
  host: string;
  pid: number;
  kind: 'agent' | 'mcp' | 'in-process';
}

/** Presence of `member` given every claim of its team, at `now` (epoch ms). */
export function presenceOf(member: string, claims: readonly PresenceClaim[], now: number): Presence {
  const claim = claims.find((c) => c.member === member);
  if (!claim) return { state: 'stopped' };
  const state: PresenceState = isLiveClaim(claim, now) ? claim.state : 'dead';
  return { state, lastBeatAt: claim.lastBeatAt, host: claim.host, pid: claim.pid, kind: claim.kind };
}

/** True for a member whose runtime is beating (working or idle). */
export function isAlive(presence: Presence): boolean {
  return presence.state === 'working' || presence.state === 'idle';
}
