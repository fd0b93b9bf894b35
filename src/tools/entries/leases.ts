/**
 * Advisory path leases (docs/leases.md) for agents: lease_acquire, lease_release, lease_list (the
 * runtime's LeaseAcquire, LeaseRelease, LeaseList). They call the lease use cases with the caller
 * as the holder and its working directory as where relative paths start (the repository root is
 * the member's registered cwd). A conflict is the use case's LEASE_HELD, returned as a tool error
 * naming the holder, its paths, reason and expiry, so the model can ask the holder or work elsewhere.
 */
import { z } from 'zod';
import { acquireLease, listLeases, releaseLeases } from '../../core/leases/path-leases.js';
import { MAX_LEASE_PATHS, MAX_LEASE_REASON } from '../../domain/path-leases.js';
import { defineTool } from '../entry.js';

/** lease_acquire / LeaseAcquire. */
export const leaseAcquireTool = defineTool({
  id: 'lease_acquire',
  names: { runtime: 'LeaseAcquire', mcp: 'lease_acquire' },
  description: (d) =>
    'Lease files, directories or globs (src/store/**, *.md) of your repository before you edit them, so teammates do not overwrite your work: all of them or none. ' +
    'An exclusive lease (the default) conflicts with any overlapping lease of another member; a shared one only with exclusive ones. ' +
    `A conflict is an error (LEASE_HELD) naming the holder, its paths, reason and expiry: ask the holder, wait, or work on other paths. ` +
    `The lease lives while your runtime beats (else until ${d.arg('ttlMs')}, default 30 minutes); release it with ${d.tool('lease_release') ?? 'lease_release'} when done. ` +
    `Only the lead may pass ${d.arg('force')} to take conflicting leases over.`,
  input: z.object({
    paths: z.array(z.string().min(1)).min(1).max(MAX_LEASE_PATHS).describe('Repository-relative (or absolute) files, directories or globs'),
    shared: z.boolean().optional().describe('A shared lease (e.g. for reading): conflicts only with exclusive ones'),
    reason: z.string().max(MAX_LEASE_REASON).optional().describe('Why, shown to anyone the lease stops'),
    ttlMs: z.number().int().positive().optional().describe('How long the lease lives when your runtime is not beating, ms (default 30 minutes, at most 7 days)'),
    force: z.boolean().optional().describe('Lead only: take conflicting leases over (journalled)'),
  }),
  run: (input, ctx) => acquireLease({ ...ctx.target, as: ctx.member, cwd: ctx.cwd, paths: input.paths, shared: input.shared, reason: input.reason, ttlMs: input.ttlMs, force: input.force }),
  views: { mcp: (lease) => ({ lease }) },
});

/** lease_release / LeaseRelease. */
export const leaseReleaseTool = defineTool({
  id: 'lease_release',
  names: { runtime: 'LeaseRelease', mcp: 'lease_release' },
  description: (d) =>
    `Release your path leases: the ones named in ${d.arg('ids')} (pl-N, as ${d.tool('lease_acquire') ?? 'lease_acquire'} returned them), or all of yours with ${d.arg('all')}. ` +
    'An id you do not hold (released, expired, or taken over by the lead) is an error (LEASE_NOT_FOUND). Returns the released leases.',
  input: z.object({
    ids: z.array(z.string().min(1)).optional().describe('Lease ids to release'),
    all: z.boolean().optional().describe('Release every lease you hold'),
  }),
  run: (input, ctx) => releaseLeases({ ...ctx.target, as: ctx.member, ids: input.ids, all: input.all }),
  views: { runtime: (released) => ({ released }), mcp: (released) => ({ released }) },
});

/** lease_list / LeaseList. */
export const leaseListTool = defineTool({
  id: 'lease_list',
  names: { runtime: 'LeaseList', mcp: 'lease_list' },
  description: (d) =>
    `List the team's live path leases: id, holder, repository, paths, shared or exclusive, reason, expiry. ${d.arg('mine')} shows only yours. Check it before editing paths a teammate may hold.`,
  input: z.object({ mine: z.boolean().optional().describe('Only your leases') }),
  hints: { readOnly: true },
  run: async (input, ctx) => {
    const leases = await listLeases(ctx.target);
    return input.mine ? leases.filter((l) => l.holder === ctx.member) : leases;
  },
  views: { mcp: (leases) => ({ leases }) },
});
