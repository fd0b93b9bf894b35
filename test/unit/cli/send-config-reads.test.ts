/**
 * `team send` reads the team config once and passes it down (issue 20): the number of
 * TeamStore.readConfig calls one command makes, counted on the files backend (reads inside a
 * store transition are the store's own and not counted).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ArgumentsCamelCase, CommandModule } from 'yargs';
import { teamBroadcastCommand, teamSendCommand } from '../../../src/cli/commands/team-send.js';
import { closeStores, type GlobalArgs } from '../../../src/cli/globals.js';
import { FsTeamStore } from '../../../src/store/fs/team-store.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const send = teamSendCommand as unknown as CommandModule<GlobalArgs, never>;
let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 'alpha', ['bob']);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await closeStores();
  await dir.cleanup();
});

async function readsOf(command: CommandModule<GlobalArgs, never>, args: Record<string, unknown>): Promise<number> {
  const reads = vi.spyOn(FsTeamStore.prototype, 'readConfig');
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const handler = command.handler as (a: ArgumentsCamelCase<Record<string, unknown>>) => Promise<void>;
  await handler({ _: [], $0: 'mailroom', root: dir.path, team: 'alpha', ...args });
  return reads.mock.calls.length;
}

describe('team send and team broadcast read the team config once', () => {
  it('a plain message to a teammate', async () => {
    expect(await readsOf(send, { to: 'bob', text: 'hello' })).toBe(1);
  });
  it('a message to the lead', async () => {
    expect(await readsOf(send, { to: 'team-lead', text: 'hello', as: 'bob' })).toBe(1);
  });
  it('a shutdown request', async () => {
    expect(await readsOf(send, { to: 'bob', 'shutdown-request': true, reason: 'done' })).toBe(1);
  });
  it('a broadcast', async () => {
    expect(await readsOf(teamBroadcastCommand as unknown as CommandModule<GlobalArgs, never>, { text: 'hello all' })).toBe(1);
  });
});
