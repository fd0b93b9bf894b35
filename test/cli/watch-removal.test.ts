/**
 * `mailroom watch` on a team Claude Code 2.1.332 removes: at the end of its session the client
 * renames `teams/<team>` to `teams/<team>.deleted-<uuid>` and then deletes it (2.1.332 snapshot
 * 5). watch says so and ends by itself, exit 0 — plain, `--json` and on the screen — while a team
 * removed some other way (`mailroom team delete`, 2.1.109's TeamDelete) is watched until it is back.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { REFERENCE_2_1_109, REFERENCE_2_1_332, SESSION_TEAM_2_1_332 as TEAM, cleanEnv, copyTree } from '../helpers/store-files.js';
import type { TempDir } from '../helpers/temp-dir.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { sh, startTmux, type TmuxSession } from '../helpers/tmux.js';

/**
 * The end-of-session words, with the tombstone named when watch saw it before the client's rm
 * finished — a race the test cannot steer, and both forms are right.
 */
const ENDED = String.raw`removed: its Claude Code session ended(?: \(the client is deleting \S+\.deleted-[0-9a-f-]{36}\))?`;

/** What the client does at session end: rename the team directory to a tombstone, then (unless `keep`) delete it. */
async function cleanUpLikeClaudeCode(root: string, team: string, keep = false): Promise<string> {
  const tombstone = join(root, 'teams', `${team}.deleted-${randomUUID()}`);
  await rename(join(root, 'teams', team), tombstone);
  if (!keep) await rm(tombstone, { recursive: true, force: true });
  return tombstone;
}

describe('mailroom watch on a team Claude Code 2.1.332 removes', () => {
  let dir: TempDir;
  let child: LineChild | undefined;
  let tmux: TmuxSession | undefined;
  beforeEach(async () => (dir = await copyTree(join(REFERENCE_2_1_332, '3-teammate-idle'))));
  afterEach(async () => {
    await child?.stop();
    child = undefined;
    await tmux?.kill();
    tmux = undefined;
    await dir.cleanup();
  });

  it('plain: says the session ended and exits 0 by itself, without recreating the team', async () => {
    child = startCli(['--root', dir.path, 'watch'], cleanEnv());
    await child.waitForLine((l) => l.includes(`watching team ${TEAM}`));
    await cleanUpLikeClaudeCode(dir.path, TEAM);
    expect(await child.exited).toBe(0);
    const lines = child.lines().slice(1).map((l) => l.replace(/^\S+Z {2}/, ''));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^team ${ENDED}$`));
    expect(child.stderr()).toBe('');
    expect(existsSync(join(dir.path, 'teams', TEAM))).toBe(false);
  });

  it('plain, the tombstone still there: names it', async () => {
    child = startCli(['--root', dir.path, 'watch'], cleanEnv());
    await child.waitForLine((l) => l.includes(`watching team ${TEAM}`));
    const tombstone = await cleanUpLikeClaudeCode(dir.path, TEAM, true);
    expect(await child.exited).toBe(0);
    expect(child.lines().slice(1).map((l) => l.replace(/^\S+Z {2}/, ''))).toEqual([`team removed: its Claude Code session ended (the client is deleting ${tombstone})`]);
  });

  it('--json: ends with a final team removal record naming the tombstone while it is there', async () => {
    child = startCli(['--root', dir.path, 'watch', '--json'], cleanEnv());
    await child.waitForLine((l) => l.includes('"kind":"ready"'));
    const tombstone = await cleanUpLikeClaudeCode(dir.path, TEAM, true);
    expect(await child.exited).toBe(0);
    const records = child.lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.slice(1)).toEqual([{ at: expect.any(String), team: TEAM, kind: 'team', action: 'removed', final: true, location: tombstone }]);
    expect(child.stderr()).toBe('');
  });

  it('on the screen: closes it, prints why and exits 0', async () => {
    const command = `env TZ=UTC ${sh(process.execPath)} ${sh(BIN)} --root ${sh(dir.path)} watch; echo "EXIT CODE $?"; sleep 30`;
    tmux = await startTmux(command);
    await tmux.waitFor((s) => s.includes('Roster (2)'));
    await cleanUpLikeClaudeCode(dir.path, TEAM);
    const screen = await tmux.waitFor((s) => s.includes('EXIT CODE'));
    expect(screen.replace(/\n/g, '')).toMatch(new RegExp(`mailroom watch: team ${TEAM} ${ENDED}; watch ended\\.`));
    expect(screen).toContain('EXIT CODE 0');
    expect(screen).not.toContain('Roster');
  });

  it('on the screen, a team already being removed (snapshot 5): no screen, one line, exit 0', async () => {
    const root = await copyTree(join(REFERENCE_2_1_332, '5-cleanup-tombstone'));
    try {
      const command = `${sh(process.execPath)} ${sh(BIN)} --root ${sh(root.path)} watch; echo "EXIT CODE $?"; sleep 30`;
      tmux = await startTmux(command);
      const screen = await tmux.waitFor((s) => s.includes('EXIT CODE'));
      expect(screen.replace(/\n/g, '')).toContain(`mailroom watch: team session-0e1bac49 removed: its Claude Code session ended (the client is deleting ${join(root.path, 'teams', 'session-0e1bac49.deleted-eb15f105-8efb-4341-86f3-1096a068cfb1')}); watch ended.`);
      expect(screen).toContain('EXIT CODE 0');
      expect(existsSync(join(root.path, 'tasks'))).toBe(false);
    } finally {
      await root.cleanup();
    }
  });
});

describe('mailroom watch on a team removed another way', () => {
  let dir: TempDir;
  let child: LineChild | undefined;
  beforeEach(async () => (dir = await copyTree(join(REFERENCE_2_1_109, '3-teammate-idle'))));
  afterEach(async () => {
    await child?.stop();
    await dir.cleanup();
  });

  it('reports it removed and keeps watching until it is back', async () => {
    child = startCli(['--root', dir.path, 'watch', 'compat'], cleanEnv());
    await child.waitForLine((l) => l.includes('watching team compat'));
    await rename(join(dir.path, 'teams', 'compat'), join(dir.path, 'compat-away'));
    await child.waitForLine((l) => l.endsWith('team removed (config.json is gone)'));
    // Still watching: its task list (which 2.1.109 and mailroom remove separately) changes are shown.
    await rm(join(dir.path, 'tasks', 'compat', '2.json'));
    await child.waitForLine((l) => l.endsWith('task #2 "Summarise fixture data" deleted'));
    expect(await child.stop()).toBe(0);
  });
});
