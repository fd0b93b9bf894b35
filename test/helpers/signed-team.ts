/**
 * A files team with signing turned on and mailroom members spawned in it (each holds a key), in a
 * fresh temp root: the set-up the trust tests share (`beforeEach(async () => ({ dir, root } =
 * await signedFsTeam(team, ['alice', 'bob']))`, then `afterEach(() => dir.cleanup())`).
 */
import { spawnMember } from '../../src/core/members/spawn.js';
import { enableSigning } from '../../src/core/teams/signing.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { openFsStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { makeTempDir, type TempDir } from './temp-dir.js';

/** Creates `team` (signed) in a new temp root with `members` spawned in order; the caller removes `dir`. */
export async function signedFsTeam(team: string, members: readonly string[]): Promise<{ dir: TempDir; root: Stores }> {
  const dir = await makeTempDir();
  const root = openFsStores(dir.path);
  await createTeam({ root, team });
  await enableSigning({ root, team });
  for (const name of members) await spawnMember({ root, team, name, cwd: dir.path });
  return { dir, root };
}
