import { rm, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFERENCE_2_1_109, cleanEnv, copyTree, mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { teamPaths, writeJsonAtomic } from '../helpers/claude-writer.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { addTask } from '../../src/core/tasks/board.js';
import { updateTask } from '../../src/core/tasks/update.js';
import { openFsStores } from '../../src/store/open.js';

const body = (line: string) => line.replace(/^\S+Z {2}/, '');

describe('mailroom log', () => {
  let dir: TempDir;
  let child: LineChild | undefined;
  afterEach(async () => {
    await child?.stop();
    await dir.cleanup();
  });

  describe('on a mailroom team', () => {
    beforeEach(async () => {
      dir = await makeTempDir();
      const o = { root: openFsStores(dir.path), team: 'demo' };
      await createTeam(o);
      await spawnMember({ ...o, name: 'alice', prompt: 'Write the parser' });
      await addTask({ ...o, subject: 'Write the parser' });
      await updateTask({ ...o, id: '1', owner: 'alice', status: 'in_progress' });
    });

    it('prints what passed through mailroom, in order', async () => {
      const run = await mailroomOk(dir.path, 'log');
      expect(run.stdout.trim().split('\n').map(body)).toEqual([
        'team created',
        'team-lead joined the team',
        'alice joined the team',
        'team-lead → alice: Write the parser',
        'task #1 "Write the parser" created: pending, no owner',
        'task #1 "Write the parser": status pending → in_progress, owner → alice',
        'team-lead → alice: [task assigned] #1 "Write the parser" by team-lead',
      ]);
    });

    it('prints journal events as NDJSON with --json, and the last N with --tail', async () => {
      const json = await mailroomOk(dir.path, 'log', '--json');
      const events = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(events.map((e) => `${String(e.kind)}/${String(e.source)}`)).toEqual([
        'team/mailroom',
        'member/mailroom',
        'member/mailroom',
        'message/mailroom',
        'task/mailroom',
        'task/mailroom',
        'message/mailroom',
      ]);
      expect(events[3]).toMatchObject({ v: 2, team: 'demo', actor: 'team-lead', to: 'alice', entry: { from: 'team-lead', text: 'Write the parser', read: false, msgV: 1 } });
      const tail = await mailroomOk(dir.path, 'log', '--tail', '2', '--no-record');
      expect(tail.stdout.trim().split('\n').map(body)).toEqual([
        'task #1 "Write the parser": status pending → in_progress, owner → alice',
        'team-lead → alice: [task assigned] #1 "Write the parser" by team-lead',
      ]);
    });

    it('follows new events until stopped', async () => {
      child = startCli(['--root', dir.path, 'log', '--follow'], cleanEnv());
      await child.waitForLine((l) => l.endsWith('team-lead joined the team'));
      const seen = child.lines().length;
      await mailroomOk(dir.path, 'team', 'send', 'alice', 'how is it going?');
      expect(body(await child.waitForLine((l) => l.includes('how is it going?'), seen))).toBe('team-lead → alice: how is it going?');
      expect(await child.stop()).toBe(0);
      expect(child.lines().filter((l) => l.includes('how is it going?'))).toHaveLength(1);
    });

    // Session 14: a mistyped team printed nothing and exited 0, as if its history were empty.
    it.each([[[]], [['--follow']], [['--no-record']], [['--json']], [['--actor', 'alice']]])('refuses a team that has neither a config nor a journal (%j): TEAM_NOT_FOUND, exit 3', async (extra) => {
      const run = await mailroom(dir.path, 'log', 'demo-typo', ...extra);
      expect(run.code, run.stderr).toBe(3);
      const message = extra.includes('--json') ? (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error.message : run.stderr;
      expect(message).toContain('Team "demo-typo" not found');
      expect(message).toContain('Teams there: demo.');
      expect(run.stdout).toBe('');
    });

    // Session 14 (break test): a corrupt config.json stopped `log` (FILE_CORRUPT, exit 7) unless
    // --no-record, though the journal it prints does not need the config.
    it.each([[[]], [['--json']], [['--tail', '2']]])('prints the history of a team whose config.json is corrupt, with a warning (%j)', async (extra) => {
      const good = await mailroomOk(dir.path, 'log', 'demo', '--no-record', ...extra);
      await writeFile(`${dir.path}/teams/demo/config.json`, '{"name":');
      const run = await mailroom(dir.path, 'log', 'demo', ...extra);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(good.stdout);
      expect(run.stderr).toMatch(/^mailroom: warning: .*config\.json is not valid JSON.*The journal is printed without recording what is on disk\./);
    });

    it('follows the journal of a team whose config.json is corrupt', async () => {
      await writeFile(`${dir.path}/teams/demo/config.json`, '{"name":');
      child = startCli(['--root', dir.path, 'log', 'demo', '--follow'], cleanEnv());
      await child.waitForLine((l) => l.endsWith('team-lead joined the team'));
      expect(await child.stop()).toBe(0);
    });

    it('refuses a negative --tail', async () => {
      const run = await mailroom(dir.path, 'log', '--tail', '-1');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('INVALID_ARGUMENT');
    });
  });

  describe("on Claude Code's files", () => {
    beforeEach(async () => (dir = await copyTree(`${REFERENCE_2_1_109}/3-teammate-idle`)));

    it('keeps messages a 2.1.332 reader deleted, and the history of a team whose session ended', async () => {
      const first = await mailroomOk(dir.path, 'log', 'compat');
      expect(first.stdout).toContain('observer → team-lead: HELLO-FROM-OBSERVER');
      await writeJsonAtomic(teamPaths(dir.path, 'compat').inbox('team-lead'), []);
      await rm(`${dir.path}/teams/compat`, { recursive: true });
      await rm(`${dir.path}/tasks/compat`, { recursive: true });
      const later = await mailroomOk(dir.path, 'log', 'compat');
      expect(later.stdout).toBe(first.stdout);
    });
  });
});
