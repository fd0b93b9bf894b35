/**
 * The team a reading command works on, after the dead-member sweep (issue 23 item 1): `task list`,
 * `task show`, `team show`, `inbox`, `log`, `watch` (and `doctor`, per team) take back the tasks of
 * a member that died with no runtime left to notice, and tell the lead, before they read.
 */
import type { Stores } from '../store/selection.js';
import { teamTarget, type GlobalArgs } from './globals.js';

/** {@link teamTarget}, then one quiet sweep of that team (never fails the command). */
export async function sweptTeamTarget(args: GlobalArgs & { as?: string | undefined }): Promise<{ root: Stores; team: string }> {
  const target = await teamTarget(args);
  const { sweepQuietly } = await import('../core/members/dead-members.js');
  await sweepQuietly({ ...target, by: args.as });
  return target;
}
