/**
 * Advisory path leases in Redis: one hash per generation (`<gen>pathleases`: `doc`, `ver`), read
 * by read-path-leases.lua (with the server's TIME: leases are judged by the store's clock, not a
 * caller's) and written by write-path-leases.lua (compare-and-set on `ver`, with the `lease`
 * events). The decision is the shared domain step (src/domain/path-leases.ts), as on files.
 */
import { leaseEvent } from '../../domain/events.js';
import { holderStates, planAcquire, planRelease, pruneLeases, type AcquireRequest, type HolderState, type LeasePlan, type ReleaseRequest } from '../../domain/path-leases.js';
import { MailroomError } from '../../errors.js';
import { PathLeaseDocSchema, emptyLeaseDoc, type PathLease, type PathLeaseDoc } from '../../protocol/path-lease.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { OpContext, ReaderClaim, Transition } from '../team-store.js';
import { runOnce, runTeamScript, untilSet, type RedisContext } from './context.js';

/** What a decision needs besides the document: the roster and the claims, read by the store. */
export interface LeaseInputs {
  readConfig(team: string): Promise<TeamConfig>;
  readClaims(team: string): Promise<ReaderClaim[]>;
}

async function readRow(rc: RedisContext, team: string): Promise<{ doc: PathLeaseDoc; ver: string; now: number }> {
  const [raw, ver, now] = (await runOnce(rc, 'read-path-leases', team, [])).value as [string, string, string];
  if (raw === '') return { doc: emptyLeaseDoc(), ver, now: Number(now) };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = undefined;
  }
  const parsed = PathLeaseDocSchema.safeParse(value);
  if (!parsed.success) throw new MailroomError('FILE_CORRUPT', `The path leases of team "${team}" in ${rc.location} do not parse: fix or remove the key.`, { details: { team } });
  return { doc: parsed.data, ver, now: Number(now) };
}

async function step<T>(rc: RedisContext, io: LeaseInputs, team: string, op: OpContext | undefined, decide: (doc: PathLeaseDoc, holders: (n: string) => HolderState, now: number) => LeasePlan<T>): Promise<Transition<T>> {
  return untilSet('pathLeases', async () => {
    const [row, config, claims] = await Promise.all([readRow(rc, team), io.readConfig(team), io.readClaims(team)]);
    const plan = decide(row.doc, holderStates(config.members, claims, row.now), row.now);
    if (plan.changes.length === 0) return { value: plan.value, events: [] };
    const stamp = { team, at: row.now, source: 'mailroom' as const, actor: op?.actor };
    const events = plan.changes.map((c) => leaseEvent(stamp, c.action, c.lease, c.why));
    const out = await runTeamScript(rc, 'write-path-leases', team, [row.ver, JSON.stringify(plan.doc), ...events.map((e) => JSON.stringify(e))]);
    return out === 'retry' ? out : { value: plan.value, events: out.events };
  });
}

/** See TeamStore.listPathLeases. */
export function listPathLeases(rc: RedisContext, io: LeaseInputs, team: string, op?: OpContext): Promise<Transition<PathLease[]>> {
  return step(rc, io, team, op, (doc, holders, now) => pruneLeases(doc, holders, now));
}

/** See TeamStore.acquirePathLease. */
export function acquirePathLease(rc: RedisContext, io: LeaseInputs, team: string, req: AcquireRequest, op?: OpContext): Promise<Transition<PathLease>> {
  return step(rc, io, team, op, (doc, holders, now) => planAcquire(doc, req, holders, now));
}

/** See TeamStore.releasePathLeases. */
export function releasePathLeases(rc: RedisContext, io: LeaseInputs, team: string, req: ReleaseRequest, op?: OpContext): Promise<Transition<PathLease[]>> {
  return step(rc, io, team, op, (doc, holders, now) => planRelease(doc, req, holders, now));
}
