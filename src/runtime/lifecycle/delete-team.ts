/**
 * `mailroom team delete --force`: the running teammates are stopped first — each by the shutdown
 * handshake, forced after the timeout ({@link stopTeammate}, the same as `team stop`) — and then the
 * team moves aside (core `deleteTeam`). A running lead (its own session, e.g. `mailroom mcp --as
 * team-lead`) is not stopped: it is reported, and finds the team gone.
 */
import { isMailroomError } from '../../errors.js';
import { deleteTeam } from '../../core/teams/team-lifecycle.js';
import { runningMembers, type RunningMember } from '../../core/members/running-members.js';
import type { TeamOptions } from '../../core/context.js';
import { isTeammate } from '../../domain/roster.js';
import type { DeletedTeam } from '../../store/team-store.js';
import { stopTeammate, type StopResult } from './stop.js';

/** Input of {@link deleteTeamStopping}. */
export interface DeleteTeamOptions extends TeamOptions {
  /** Stop running teammates first and delete whatever is marked active (else refused). */
  force?: boolean | undefined;
  /** How long each teammate gets to answer its shutdown request (ms, default 30 000), then it is forced. */
  timeoutMs?: number | undefined;
  /** Called before each teammate is asked to stop. */
  onStopping?: ((member: RunningMember) => void) | undefined;
}

/** What {@link deleteTeamStopping} did. */
export interface DeleteTeamResult {
  deleted: DeletedTeam;
  /** Teammates stopped first (with --force), in roster order. */
  stopped: StopResult[];
  /** Members still running when the team was moved aside (a lead's own session). */
  stillRunning: RunningMember[];
}

/**
 * Deletes the team; with `force`, stops its running teammates first.
 * @throws TEAM_NOT_FOUND; TEAMMATE_RUNNING and TEAM_ACTIVE without `force` (with it, a teammate that rejects the shutdown is stopped anyway)
 */
export async function deleteTeamStopping(options: DeleteTeamOptions): Promise<DeleteTeamResult> {
  if (!options.force) return { deleted: await deleteTeam(options), stopped: [], stillRunning: [] };
  const stores = options.root;
  const config = await stores.team.readConfig(options.team);
  const teammates = (await runningMembers(options)).filter((r) => config.members.some((m) => m.name === r.name && isTeammate(config, m)));
  const stopped = await Promise.all(
    teammates.map(async (r) => {
      options.onStopping?.(r);
      const o = { root: stores, team: options.team, name: r.name, timeoutMs: options.timeoutMs, reason: `team ${options.team} is being deleted` };
      try {
        return await stopTeammate(o);
      } catch (err) {
        // A teammate that says no is stopped anyway: --force was asked for.
        if (isMailroomError(err, 'SHUTDOWN_REJECTED')) return stopTeammate({ ...o, force: true });
        throw err;
      }
    }),
  );
  const stillRunning = await runningMembers(options);
  return { deleted: await deleteTeam({ ...options, force: true }), stopped, stillRunning };
}
