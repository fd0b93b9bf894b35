/**
 * Advisory path leases (docs/leases.md): who is editing which paths of a repository. Stored by
 * mailroom only (files: `teams/<team>/mailroom-path-leases.json`; Redis: the team's `pathleases`
 * hash), never in a file Claude Code reads.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** One lease: a member's claim on paths (files, directories or globs) of one repository. */
export const PathLeaseSchema = lazySchema(() => z.looseObject({
  /** `pl-` + the token (unique in the team, never reused). */
  id: z.string(),
  /** The member holding it. */
  holder: z.string(),
  /** The repository's root, an absolute path on the holder's machine. */
  repo: z.string(),
  /** Repository-relative POSIX paths or globs (`src/**`, `*.md`, `docs/x.md`); a plain path covers everything under it. */
  paths: z.array(z.string()).min(1),
  /** Shared leases conflict only with exclusive ones. */
  shared: z.boolean(),
  reason: z.string().optional(),
  /** Fencing token: grows with every acquisition in the team (a holder presents it to prove it still holds the lease). */
  token: z.number().int().positive(),
  /** Epoch ms, by the store's clock. */
  acquiredAt: z.number(),
  /** Epoch ms (store clock) after which the lease is gone unless its holder's runtime is beating. */
  expiresAt: z.number(),
  /** Its TTL, ms. */
  ttlMs: z.number().int().positive(),
}));

/** One lease. */
export type PathLease = z.infer<typeof PathLeaseSchema>;

/** The stored document: the live leases and the next token. */
export const PathLeaseDocSchema = lazySchema(() => z.looseObject({
  leases: z.array(PathLeaseSchema),
  nextToken: z.number().int().positive(),
}));

/** The stored document. */
export type PathLeaseDoc = z.infer<typeof PathLeaseDocSchema>;

/** A document with no leases. */
export function emptyLeaseDoc(): PathLeaseDoc {
  return { leases: [], nextToken: 1 };
}
