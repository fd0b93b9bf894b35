/**
 * Issue 9 item 5: one corrupt inbox stopped `mailroom watch` from starting (exit 7, FILE_CORRUPT),
 * the moment a user most wants to look. Now watch — plain, `--json` and the screen in a real
 * terminal (tmux) — shows the team with the corrupt inbox flagged and the doctor command to run.
 */
import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { BIN } from '../helpers/cli.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { cleanEnv, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { sh, startTmux, type TmuxSession } from '../helpers/tmux.js';
import { openFsStores } from '../../src/store/open.js';

let dir: TempDir;
let child: LineChild | undefined;
let tmux: TmuxSession | undefined;
let inbox: string;
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 't' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'bob' });
  await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'bob', text: 'hello bob' });
  inbox = `${dir.path}/teams/t/inboxes/alice.json`;
  await writeFile(inbox, '[{"from":"team-lead","te');
});
afterEach(async () => {
  await child?.stop();
  await tmux?.kill();
  child = tmux = undefined;
  await dir.cleanup();
});

describe('watch with a corrupt inbox', () => {
  it('plain: starts, shows the team and flags the inbox with the doctor command; keeps following', async () => {
    child = startCli(['--root', dir.path, 'watch', 't'], cleanEnv());
    const ready = await child.waitForLine((l) => l.includes('watching team t'));
    expect(ready).toContain('3 members');
    const flag = await child.waitForLine((l) => l.includes('FILE_CORRUPT'));
    expect(flag).toContain(`alice's inbox cannot be read: ${inbox}`);
    expect(flag).toContain(`Run \`mailroom --root ${dir.path} doctor --fix\`.`);
    await mailroomOk(dir.path, 'team', 'send', 'bob', 'still watching?');
    await child.waitForLine((l) => l.endsWith('team-lead → bob: still watching?'));
  });

  it('--json: the ready record carries the problem', async () => {
    child = startCli(['--root', dir.path, 'watch', 't', '--json'], cleanEnv());
    const ready = JSON.parse(await child.waitForLine((l) => l.includes('"ready"'))) as Record<string, unknown>;
    expect(ready).toMatchObject({ kind: 'ready', team: 't', problems: [{ code: 'FILE_CORRUPT', member: 'alice', path: inbox, fix: `mailroom --root ${dir.path} doctor --fix` }] });
    expect((ready.members as Array<{ name: string }>).map((m) => m.name)).toEqual(['team-lead', 'alice', 'bob']);
  });

  it('screen (tmux): the team is shown with the corrupt inbox flagged under the header', async () => {
    tmux = await startTmux(`env TZ=UTC ${sh(process.execPath)} ${sh(BIN)} --root ${sh(dir.path)} watch t; echo "EXIT CODE $?"; sleep 30`);
    const screen = await tmux.waitFor((s) => s.includes('Roster (3)'));
    const lines = screen.split('\n');
    expect(lines[0]).toContain('mailroom watch · team t · 3 members');
    expect(lines[1]).toContain("⚠ FILE_CORRUPT: alice's inbox cannot be read:");
    expect(screen).not.toContain('EXIT CODE');
  });
});
