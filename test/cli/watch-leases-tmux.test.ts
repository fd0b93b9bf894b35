/**
 * The leases pane of the `mailroom watch` screen in a real terminal (tmux 120×40, issue 26 item 3):
 * a lease taken with `mailroom lease acquire` while the screen runs appears under the roster
 * (holder, exclusive, paths, reason), and goes when it is released.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { spawnMember } from '../../src/core/members/spawn.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { BIN } from '../helpers/cli.js';
import { mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { sh, startTmux, type TmuxSession } from '../helpers/tmux.js';
import { openFsStores } from '../../src/store/open.js';

let dir: TempDir;
let tmux: TmuxSession | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 't' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice' });
});
afterEach(async () => {
  await tmux?.kill();
  tmux = undefined;
  await dir.cleanup();
});

it('shows a lease taken while it runs under the roster, and drops it when released', async () => {
  const command = `env TZ=UTC MAILROOM_TEAM= ${sh(process.execPath)} ${sh(BIN)} --root ${sh(dir.path)} watch t; echo "EXIT CODE $?"; sleep 30`;
  tmux = await startTmux(command);
  let screen = await tmux.waitFor((s) => s.includes('Roster ('));
  expect(screen).not.toContain('Leases (');
  await mailroomOk(dir.path, 'lease', 'acquire', 'src/store/**', '--as', 'alice', '--reason', 'rewriting the lock', '--team', 't');
  screen = await tmux.waitFor((s) => s.includes('Leases (1: 1 exclusive, 0 shared)'));
  expect(screen).toMatch(/alice +exclusive +until \d\d:\d\d:\d\d +src\/store\/\*\* — rewriting the lock/);
  expect(screen.indexOf('Roster (')).toBeLessThan(screen.indexOf('Leases ('));
  await mailroomOk(dir.path, 'lease', 'release', '--all', '--as', 'alice', '--team', 't');
  screen = await tmux.waitFor((s) => !s.includes('Leases (') && s.includes('Roster ('));
  await tmux.send('q');
  screen = await tmux.waitFor((s) => s.includes('EXIT CODE'));
  expect(screen).toContain('EXIT CODE 0');
});
