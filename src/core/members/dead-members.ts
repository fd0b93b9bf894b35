/**
 * Picking up after a crash (issue 10 item 2): a teammate whose reader claim is `dead` (no beat for
 * three intervals, src/domain/presence.ts) for a further grace period has its `in_progress` tasks
 * put back to `pending` with no owner, its `isActive` set false, and the lead gets a plain message
 * from it in Claude Code's inbox shape saying so (a Claude Code lead reads it as a teammate
 * message). The task changes are journalled (task updated, actor: the sweeper) with the message.
 *
 * Any live runtime sweeps its team (`mailroom agent`, `mailroom mcp`, an in-process host) every
 * {@link SWEEP_INTERVAL_MS} while a claim is dead, else once the first claim could be judged, at
 * most a grace apart ({@link startSweeper}); docs/runtime.md "Dead members". Liveness is judged by the store's
 * clock, and a sweeper that could not beat through the window declares nobody dead (issue 21 item 3). Two sweepers at once do it once: the
 * store's `unassignTasks` re-checks each task's owner and status under its lock (compare-and-set),
 * so each task goes back exactly once and only a sweeper that moved some tasks tells the lead. A
 * member that comes back under the same name takes its dead claim over and carries on.
 */
import { presenceOf } from '../../domain/presence.js';
import { isTeammate, leadName } from '../../domain/roster.js';
import type { Task } from '../../protocol/task.js';
import type { PathLease } from '../../protocol/path-lease.js';
import { lostLeasesText, releaseDeadMemberLeases } from '../leases/dead-leases.js';
import { nowOf, teamOf, type TeamOptions } from '../context.js';
import { sendMessage } from '../messages/send.js';
import { livenessTiming } from './liveness.js';

/** How long a member stays dead before its tasks are taken back (ms): one more claim ttl, 30 s after its last beat in all. */
export const DEAD_GRACE_MS = 15_000;
/** How often a runtime sweeps its team at most (ms): once per beat interval (while a claim is dead; {@link startSweeper}). */
export const SWEEP_INTERVAL_MS = 5_000;

/** One dead member a sweep acted on. */
export interface SweptMember {
  name: string;
  /** Epoch ms of its last beat (the store's clock). */
  lastBeatAt: number;
  /** Its tasks this sweep put back to pending (another sweeper may have taken others). */
  unassigned: Task[];
  /** Its path leases this sweep released (docs/leases.md). */
  leases: PathLease[];
}

/** A sweeper's own presence in the store: a runtime's reader claim (`ReaderLease`). */
export interface SweeperPresence {
  /**
   * Beats now; on the store's clock, when that beat landed and for how long before it the
   * sweeper's beats had landed without a gap. Undefined when the beat did not land.
   */
  presence(): Promise<{ at: number; continuousMs: number } | undefined>;
}

/** Input of {@link sweepDeadMembers}. */
export interface SweepOptions extends TeamOptions {
  /** Dead for at least this long before anything is taken back (ms; default {@link DEAD_GRACE_MS}, or 3 × `$MAILROOM_BEAT_MS`: ./liveness.ts). */
  graceMs?: number;
  /** Who sweeps (journalled as the actor of the task changes). */
  by?: string;
  /**
   * The sweeper's own reader claim (a runtime's `ReaderLease`). With it the sweep first beats, judges
   * at the store time that beat landed, and judges a member only when its own beats landed without a
   * gap for the whole window (the member's ttl + grace): a sweeper that could not beat through the
   * window (a store stall, its own freeze) declares nobody dead. Without it (a command, `watch`, the
   * bridge, an in-process host) the sweep judges by the store's clock ({@link TeamStore.readClock})
   * and only members silent for ttl + grace + the stall bound (`stallBoundMs`, 2 minutes).
   */
  presence?: SweeperPresence;
  /** The stall a sweeper without presence tolerates (ms; default `livenessTiming().stallBoundMs`, 120 s). */
  stallBoundMs?: number;
}

/**
 * Takes back the in_progress tasks of every teammate dead for the grace period and tells the lead.
 * Every time compared is the store's (issue 21 item 3): beats are stamped when they land (Redis
 * `TIME`, the filesystem's mtime), and the sweep's "now" is its own beat's stamp or the store's clock.
 * `options.now` (tests) replaces the store's clock of a sweep without presence.
 * @returns the members whose tasks this sweep moved (none when another sweeper was first)
 * @throws TEAM_NOT_FOUND (a team with no reader claims is swept without reading it: nothing to judge)
 */
export async function sweepDeadMembers(options: SweepOptions): Promise<SweptMember[]> {
  return (await sweepOnce(options)).swept;
}

/**
 * One sweep, and how long (ms, on the store's clock) after it nobody known to it can be judged:
 * the least, over the claims it read, of `lastBeatAt + ttlMs + grace + margin − now` (a later beat
 * only makes that later); 0 when a claim is dead already or the sweep could not judge; Infinity
 * when the team has no claim at all. A claim that appears after the sweep read was stamped when
 * it landed, so it cannot be judged for at least the grace after that.
 */
async function sweepOnce(options: SweepOptions): Promise<{ swept: SweptMember[]; quietMs: number }> {
  const store = teamOf(options);
  const timing = livenessTiming();
  const grace = options.graceMs ?? timing.graceMs;
  const none = (quietMs: number) => ({ swept: [], quietMs });
  // No reader claim, nobody to judge: a team no mailroom runtime ever read is swept without
  // stamping the store's clock, so a reading command on a Claude Code team writes nothing.
  if (!options.presence && options.now === undefined && (await store.readClaims(options.team)).length === 0) return none(Number.POSITIVE_INFINITY);
  const judge = await judgeAt(options, timing.stallBoundMs);
  if (!judge) return none(0);
  const asked = performance.now();
  const now = judge.now;
  // The claims first: when none is dead (every idle sweep) the config is not read (issue 24 item 3).
  const claims = await store.readClaims(options.team);
  if (!claims.some((c) => presenceOf(c.member, claims, now).state === 'dead')) {
    const quietMs = Math.min(...claims.map((c) => c.lastBeatAt + c.ttlMs + grace + judge.marginMs - now));
    return none(Math.max(0, quietMs));
  }
  const config = await store.readConfig(options.team);
  // A read that itself waited longer than a beat period saw a stalled store (or a frozen sweeper):
  // the members' beats could not land either, so nobody is judged from it.
  if (options.now === undefined && performance.now() - asked > Math.max(timing.beatMs, 1_000)) return none(0);
  const swept: SweptMember[] = [];
  for (const m of config.members) {
    if (!isTeammate(config, m)) continue;
    const claim = claims.find((c) => c.member === m.name);
    if (!claim || presenceOf(m.name, claims, now).state !== 'dead') continue;
    const window = claim.ttlMs + grace;
    if (now - claim.lastBeatAt < window + judge.marginMs || judge.coveredMs < window) continue;
    // Re-checked in the same step as each task's change: a beat that landed after this judgement (the
    // member woke, or the sweeper froze between reading and writing) stops the unassignment.
    const op = { now, actor: options.by, statuses: ['in_progress'] as const, ifSilent: { member: m.name, lastBeatAt: claim.lastBeatAt } };
    const unassigned: Task[] = [];
    for (const owner of new Set([m.name, m.agentId])) unassigned.push(...(await store.unassignTasks(options.team, owner, op)).value);
    const leases = await releaseDeadMemberLeases(store, options.team, m.name, { now, actor: options.by });
    if (m.isActive === true) await store.updateMember(options.team, m.name, { isActive: false }, { now, actor: options.by }).catch(() => undefined);
    if (unassigned.length === 0 && leases.length === 0) continue;
    swept.push({ name: m.name, lastBeatAt: claim.lastBeatAt, unassigned, leases });
    const lost = leases.length > 0 ? `, ${leases.length} lease(s) released` : '';
    await sendMessage({ ...options, from: m.name, to: leadName(config), text: deadText(m.name, claim, unassigned) + lostLeasesText(leases), summary: `${m.name} is dead; ${unassigned.length} task(s) back to pending${lost}` });
  }
  return { swept, quietMs: 0 };
}

/**
 * When a sweep judges (`now`, the store's clock), how much longer than ttl + grace a member must
 * be silent (`marginMs`), and how long a window the sweeper's own presence covers (`coveredMs`).
 * Undefined: judge nobody (the sweeper's own beat did not land).
 */
async function judgeAt(options: SweepOptions, stallBoundMs: number): Promise<{ now: number; marginMs: number; coveredMs: number } | undefined> {
  if (options.presence) {
    const own = await options.presence.presence();
    return own && { now: own.at, marginMs: 0, coveredMs: own.continuousMs };
  }
  const now = options.now !== undefined ? nowOf(options) : await teamOf(options).readClock(options.team);
  return { now, marginMs: options.stallBoundMs ?? stallBoundMs, coveredMs: Number.POSITIVE_INFINITY };
}

function deadText(name: string, claim: { lastBeatAt: number; pid: number; host: string }, tasks: readonly Task[]): string {
  const list = tasks.map((t) => `#${t.id} ${JSON.stringify(t.subject)}`).join(', ');
  return (
    `${name} stopped: no heartbeat since ${new Date(claim.lastBeatAt).toISOString()} (process ${claim.pid} on ${claim.host}); presumed dead. ` +
    `${tasks.length} task(s) were unassigned and are pending again${tasks.length > 0 ? `: ${list}` : ''}. (Sent by mailroom on ${name}'s behalf.)`
  );
}

/** A running sweep of one team; `close()` stops it. */
export interface Sweeper {
  close(): void;
}

/**
 * Sweeps the team at once and then again and again until closed (an unref'd timer: it never keeps
 * the process alive). Errors are logged and retried after {@link SWEEP_INTERVAL_MS}.
 *
 * When. Every sweep period (`intervalMs`, default {@link SWEEP_INTERVAL_MS} or `$MAILROOM_BEAT_MS`)
 * while some claim is dead or the sweep could not judge; otherwise not before the first instant any
 * claim it read could be judged (its last beat + its ttl + the grace, + the stall bound without a
 * presence) and never later than one grace after this sweep (a claim that appears meanwhile is
 * stamped when it lands, so it cannot be judged sooner). A member that beats on keeps pushing that
 * instant back, so an idle team of live members is swept about once per grace (15 s) instead of
 * every beat (issue 24 item 3), while a member killed right after a beat is acted on as soon as its
 * window ends, as before.
 */
export function startSweeper(options: SweepOptions & { log?: (line: string) => void; intervalMs?: number }): Sweeper {
  const timing = livenessTiming();
  const floorMs = options.intervalMs ?? timing.sweepMs;
  const ceilingMs = Math.max(floorMs, options.graceMs ?? timing.graceMs);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = (quietMs: number) => {
    if (closed) return;
    timer = setTimeout(tick, Math.min(ceilingMs, Math.max(floorMs, quietMs)));
    timer.unref();
  };
  const tick = () => {
    timer = undefined;
    sweepOnce(options)
      .then(({ swept, quietMs }) => {
        for (const s of swept) options.log?.(`${s.name} is dead (no heartbeat since ${new Date(s.lastBeatAt).toISOString()}): unassigned ${s.unassigned.map((t) => `#${t.id}`).join(', ') || 'no task'}${s.leases.length > 0 ? `, released leases ${s.leases.map((l) => l.id).join(', ')}` : ''} and told the lead`);
        return quietMs;
      })
      .catch((err: unknown) => {
        options.log?.(`could not sweep dead members (will retry): ${err instanceof Error ? err.message : String(err)}`);
        return 0;
      })
      .then(schedule);
  };
  // A first sweep at once: a member that died before this sweeper started is noticed now.
  const first = setImmediate(tick);
  return {
    close: () => {
      closed = true;
      clearImmediate(first);
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * One sweep that never fails its caller (issue 23 item 1: "somebody always notices"): every command
 * that reads a team runs it first, so a member that died with no runtime left to notice is handled
 * by whoever looks next. It writes only when a member is dead past the grace and still owns tasks;
 * two at once do it once (see {@link sweepDeadMembers}). Errors are dropped: the command's own
 * read reports a missing team or an unreachable store.
 */
export async function sweepQuietly(options: SweepOptions): Promise<SweptMember[]> {
  try {
    return await sweepDeadMembers(options);
  } catch {
    return [];
  }
}
