import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFERENCE_2_1_109, cleanEnv, copyTree, mailroomOk } from '../helpers/store-files.js';
import type { TempDir } from '../helpers/temp-dir.js';
import { appendEntries, idleEntry, teamPaths } from '../helpers/claude-writer.js';
import { startCli, type LineChild } from '../helpers/line-child.js';

const TEAM = 'compat';

describe('mailroom watch without a terminal', () => {
  let dir: TempDir;
  let child: LineChild | undefined;
  beforeEach(async () => (dir = await copyTree(`${REFERENCE_2_1_109}/3-teammate-idle`)));
  afterEach(async () => {
    await child?.stop();
    await dir.cleanup();
  });

  it('prints one plain line per event and stops cleanly on SIGTERM', async () => {
    child = startCli(['--root', dir.path, 'watch', TEAM], cleanEnv());
    const ready = await child.waitForLine((l) => l.includes('watching team'));
    expect(ready).toMatch(/^\S+Z {2}watching team compat: 2 members \(team-lead unknown, observer working\), 2 tasks, 2 messages$/);
    await appendEntries(teamPaths(dir.path, TEAM).inbox('team-lead'), idleEntry('observer', '2026-11-29T13:30:00.000Z'));
    await child.waitForLine((l) => l.endsWith('observer: working → idle (idle notice at 2026-11-29T13:30:00.000Z)'));
    await mailroomOk(dir.path, 'task', 'add', 'Review the summary', '--team', TEAM);
    await child.waitForLine((l) => l.endsWith('task #3 "Review the summary" created: pending, no owner'));
    const events = child.lines().slice(1).map((l) => l.replace(/^\S+Z {2}/, ''));
    expect(events).toEqual([
      'observer → team-lead: [idle: available]',
      'observer: working → idle (idle notice at 2026-11-29T13:30:00.000Z)',
      'task #3 "Review the summary" created: pending, no owner',
    ]);
    expect(await child.stop()).toBe(0);
    expect(child.stderr()).toBe('');
  });

  it('prints NDJSON events with --json', async () => {
    child = startCli(['--root', dir.path, 'watch', TEAM, '--json'], cleanEnv());
    const ready = JSON.parse(await child.waitForLine((l) => l.includes('"ready"'))) as Record<string, unknown>;
    expect(ready).toMatchObject({
      team: TEAM,
      kind: 'ready',
      members: [
        { name: 'team-lead', state: 'unknown', unread: 1 },
        { name: 'observer', state: 'working', unread: 1 },
      ],
      tasks: { pending: 1, in_progress: 0, completed: 1 },
      messages: 2,
    });
    await mailroomOk(dir.path, 'team', 'send', 'observer', 'hello over there', '--team', TEAM);
    const line = await child.waitForLine((l) => l.includes('"message"'));
    expect(JSON.parse(line)).toMatchObject({ kind: 'message', team: TEAM, from: 'team-lead', to: 'observer', status: 'unread', line: 'hello over there' });
    for (const l of child.lines()) expect(() => JSON.parse(l)).not.toThrow();
    expect(await child.stop()).toBe(0);
  });

  it('exits without an error when its reader goes away', async () => {
    child = startCli(['--root', dir.path, 'watch', TEAM], cleanEnv());
    await child.waitForLine((l) => l.includes('watching team'));
    child.proc.stdout!.destroy();
    await mailroomOk(dir.path, 'team', 'send', 'observer', 'anyone there?', '--team', TEAM);
    expect(await child.exited).toBe(0);
    expect(child.stderr()).toBe('');
  });

  it('reports an unknown team with exit code 3 instead of waiting', async () => {
    child = startCli(['--root', dir.path, 'watch', 'nope'], cleanEnv());
    expect(await child.exited).toBe(3);
    expect(child.stderr()).toContain('TEAM_NOT_FOUND');
    expect(existsSync(`${dir.path}/teams/nope`)).toBe(false);
  });
});
