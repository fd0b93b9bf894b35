/**
 * The reader-claim fence on the filesystem (issue 21 item 1): a take or an acknowledgement that
 * names a claim token (`TakeOptions.claim`) runs only while that token holds the member's claim.
 * Checked inside the step, under the lease sidecar's lock, against the claim file as it is then
 * (every claim write is a rename, so one read sees one whole claim). A takeover writes the new
 * claim and then voids the old holder's leases under the same sidecar lock: a take that passed the
 * check just before the new claim landed holds a lease that the takeover voids right after.
 */
import { z } from 'zod';
import { lazySchema } from '../../protocol/lazy-schema.js';
import { readerFenced } from '../../domain/reader-claims.js';
import { readJsonFile } from './json-file.js';
import type { FsContext } from './context.js';

const FenceSchema = lazySchema(() => z.looseObject({
  token: z.string(),
  kind: z.enum(['agent', 'mcp', 'in-process']),
  host: z.string(),
  pid: z.number().int(),
  startedAt: z.number(),
}));

/**
 * Throws READER_FENCED unless `claim` (when given) is the token of the member's reader claim file.
 * A claim file that does not parse fences too (no token can be proved to hold it).
 */
export async function checkReaderFence(ctx: FsContext, team: string, member: string, claim: string | undefined): Promise<void> {
  if (claim === undefined) return;
  const read = await readJsonFile(ctx.layout.readerClaimPath(team, member)).catch(() => undefined);
  const parsed = read?.state === 'ok' ? FenceSchema.safeParse(read.value) : undefined;
  if (parsed?.success && parsed.data.token === claim) return;
  throw readerFenced(team, member, parsed?.success ? parsed.data : undefined);
}
