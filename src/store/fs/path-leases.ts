/**
 * Advisory path leases on disk: `teams/<teamDir>/mailroom-path-leases.json` (docs/leases.md),
 * changed under its own lock with its `lease` journal lines, one locked step per transition. The
 * decision is the shared domain step (src/domain/path-leases.ts); the clock is this machine's (a
 * files store lives on one machine). A document that does not parse is never overwritten.
 */
import { leaseEvent } from '../../domain/events.js';
import { holderStates, planAcquire, planRelease, pruneLeases, type AcquireRequest, type LeasePlan, type ReleaseRequest } from '../../domain/path-leases.js';
import { PathLeaseDocSchema, emptyLeaseDoc, type PathLease, type PathLeaseDoc } from '../../protocol/path-lease.js';
import type { OpContext, Transition } from '../team-store.js';
import { corruptFile, readJsonFile, writeJsonFile } from './json-file.js';
import { locked, nowOf, stampOf, type FsContext } from './context.js';
import { journal } from './journal.js';
import { readConfig } from './teams.js';
import { readClaims } from './readers.js';
import type { HolderState } from '../../domain/path-leases.js';

async function readDoc(path: string): Promise<PathLeaseDoc> {
  const read = await readJsonFile(path);
  if (read.state === 'missing') return emptyLeaseDoc();
  const parsed = PathLeaseDocSchema.safeParse(read.value);
  if (!parsed.success) throw corruptFile(path, parsed.error, 'is not a mailroom path-lease document');
  return parsed.data;
}

/** Runs one decision under the lease file's lock; writes and journals only when something changed. */
async function step<T>(ctx: FsContext, team: string, op: OpContext | undefined, decide: (doc: PathLeaseDoc, holders: (n: string) => HolderState, now: number) => LeasePlan<T>): Promise<Transition<T>> {
  const config = await readConfig(ctx, team);
  const path = ctx.layout.pathLeasesPath(team);
  return locked(ctx, path, async (lock) => {
    const now = nowOf(op);
    const holders = holderStates(config.members, await readClaims(ctx, team), now);
    const plan = decide(await readDoc(path), holders, now);
    if (plan.changes.length === 0) return { value: plan.value, events: [] };
    await writeJsonFile(path, plan.doc, lock);
    const events = plan.changes.map((c) => leaseEvent(stampOf(team, op), c.action, c.lease, c.why));
    await journal(ctx, team, events);
    return { value: plan.value, events };
  });
}

/** The live leases (ones that ended are dropped and journalled `expired`). */
export function listPathLeases(ctx: FsContext, team: string, op?: OpContext): Promise<Transition<PathLease[]>> {
  return step(ctx, team, op, (doc, holders, now) => pruneLeases(doc, holders, now));
}

/** One all-or-nothing acquisition. @throws LEASE_HELD */
export function acquirePathLease(ctx: FsContext, team: string, req: AcquireRequest, op?: OpContext): Promise<Transition<PathLease>> {
  return step(ctx, team, op, (doc, holders, now) => planAcquire(doc, req, holders, now));
}

/** Releases a holder's leases. @throws LEASE_NOT_FOUND */
export function releasePathLeases(ctx: FsContext, team: string, req: ReleaseRequest, op?: OpContext): Promise<Transition<PathLease[]>> {
  return step(ctx, team, op, (doc, holders, now) => planRelease(doc, req, holders, now));
}
