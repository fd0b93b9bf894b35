/**
 * `team spawn --backend process` in one call: register the member, then start its detached
 * `mailroom agent` process. The member is recorded as what it is to Claude Code — no pane
 * (`tmuxPaneId: ""`) and none of Claude Code's backends (no `backendType`), see
 * src/protocol/backend.ts — and its pid lives in mailroom's own process record (docs/runtime.md
 * "Backends").
 */
import { MailroomError } from '../../errors.js';
import { rollBackSpawn } from '../../core/members/spawn-rollback.js';
import { spawnMember, type SpawnOptions } from '../../core/members/spawn.js';
import type { Member } from '../../protocol/config.js';
import type { ProcessRecord } from '../../protocol/process.js';
import { startProcessTeammate } from './start.js';

/** How a process-backend teammate is registered (its roster fields: {@link rosterBackend}). */
export const PROCESS_MEMBER_BACKEND = { backend: 'process' } as const satisfies Pick<SpawnOptions, 'backend'>;

/** The registered member and its started process. */
export interface SpawnedProcess {
  member: Member;
  /** Its pid record; a detached process always has a log file. */
  process: ProcessRecord & { logFile: string };
}

/**
 * Registers the member (as {@link spawnMember}, with {@link PROCESS_MEMBER_BACKEND}: see
 * `rosterBackend` in src/protocol/backend.ts) and starts it.
 * `options.backend`/`paneId` are ignored (`paneId` is dropped). The spawn prompt is its first inbox message. When the
 * process cannot be started or exits during its start-up, the registration is rolled back
 * ({@link rollBackSpawn}) and the error, with the log's last lines, is thrown.
 * @throws everything {@link spawnMember} and {@link startProcessTeammate} throw
 */
export async function spawnProcessTeammate(options: SpawnOptions): Promise<SpawnedProcess> {
  const member = await spawnMember({ ...options, ...PROCESS_MEMBER_BACKEND, paneId: undefined });
  try {
    const started = await startProcessTeammate({ root: options.root, team: options.team, name: member.name });
    return { member, process: started };
  } catch (err) {
    // The start-up error is what the user must see; a failed rollback is added to it, never put in its place.
    const rollback = await rollBackSpawn({ root: options.root, team: options.team, member, prompt: options.prompt }).then(
      () => undefined,
      (failure: unknown) => (failure instanceof Error ? failure.message : String(failure)),
    );
    throw rolledBack(err, member.name, rollback);
  }
}

function rolledBack(err: unknown, name: string, rollbackFailure: string | undefined): unknown {
  if (!(err instanceof MailroomError)) return err;
  const after =
    rollbackFailure === undefined
      ? `${name} was removed from the team again; fix the cause and run the same \`team spawn\` command again.`
      : `${name} could not be removed from the team again (${rollbackFailure}): stop it with \`mailroom team stop ${name} --force\`, fix the cause, then spawn it again.`;
  return new MailroomError(err.code, `${err.message}\n${after}`, { cause: err, details: err.details });
}
