/**
 * The journal readers (`log`, `log --actor`) print the history of a team whose config is gone (a
 * finished Claude Code session), so they cannot refuse a name only because it has no config. A
 * name with neither a config nor a journal is a mistyped one: refused as every verb refuses it.
 */
import { isMailroomError } from '../../errors.js';
import type { Stores } from '../../store/selection.js';

/**
 * Call when the team's journal is empty.
 * @throws TEAM_NOT_FOUND (naming the teams there) when the team has no config either, and what
 * else reading the config throws (TEAM_LOST, STORE_UNAVAILABLE) except FILE_CORRUPT: a config
 * that cannot be read is left to the commands that read it.
 */
export async function requireTeamOrHistory(store: Stores, team: string): Promise<void> {
  try {
    await store.team.readConfig(team);
  } catch (err) {
    if (!isMailroomError(err, 'FILE_CORRUPT')) throw err;
  }
}
