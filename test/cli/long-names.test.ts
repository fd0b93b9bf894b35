/**
 * Issue 9 item 6: names Claude Code can write broke commands. A 300-character `--team` gave
 * `INTERNAL: ENAMETOOLONG`; a config with a 300-character member made `team show` and `watch` fail
 * for the whole team and `team broadcast` deliver to part of it; members whose names sanitise to
 * one inbox file (`café`/`cafè` → `caf-.json`) went unreported. Real CLI processes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { cleanEnv, mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

const LONG = 'x'.repeat(300);
let dir: TempDir;
let child: LineChild | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 't' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'bob' });
});
afterEach(async () => {
  await child?.stop();
  child = undefined;
  await dir.cleanup();
});

it('a 300-character --team is NAME_TOO_LONG (exit 2, the limit named), not INTERNAL', async () => {
  for (const args of [['team', 'show', '--team', 'a'.repeat(300)], ['inbox', '--team', 'a'.repeat(300)], ['team', 'send', 'bob', 'hi', '--team', 'a'.repeat(300)]]) {
    const run = await mailroom(dir.path, ...args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('NAME_TOO_LONG');
    expect(run.stderr).toContain('is 300 characters');
    expect(run.stderr).toContain('at most 200 bytes');
    expect(run.stderr).not.toContain('INTERNAL');
  }
});

describe('a Claude Code–written config with a 300-character member and two names for one inbox file', () => {
  beforeEach(async () => {
    const path = `${dir.path}/teams/t/config.json`;
    const config = JSON.parse(await readFile(path, 'utf8')) as { members: Array<Record<string, unknown>> };
    const bob = config.members[1]!;
    for (const name of [LONG, 'café', 'cafè']) config.members.push({ ...bob, name, agentId: `${name}@t` });
    await writeFile(path, JSON.stringify(config));
  });

  it('team show serves the team and flags the one member with NAME_TOO_LONG, and the later of two sharing an inbox file with INBOX_SHARED', async () => {
    const run = await mailroomOk(dir.path, 'team', 'show', 't');
    expect(run.stdout).toMatch(/bob .* — stopped \(nothing runs it\), 0 unread/);
    expect(run.stdout).toContain('— cannot be served: NAME_TOO_LONG');
    const json = JSON.parse((await mailroomOk(dir.path, 'team', 'show', 't', '--json')).stdout) as { members: Array<{ name: string; problem?: { code: string } }> };
    expect(json.members.filter((m) => m.problem).map((m) => [m.name.length > 40 ? m.name.length : m.name, m.problem!.code])).toEqual([
      [300, 'NAME_TOO_LONG'],
      ['cafè', 'INBOX_SHARED'],
    ]);
    expect(run.stdout).toMatch(/cafè .* — cannot be served: INBOX_SHARED/);
    expect(run.stdout).toMatch(/café .* — no heartbeat: mailroom does not run it, 0 unread/);
  });

  it('watch --json starts, listing every member, with the long one and the sharing one flagged', async () => {
    child = startCli(['--root', dir.path, 'watch', 't', '--json'], cleanEnv());
    const ready = JSON.parse(await child.waitForLine((l) => l.includes('"ready"'))) as { members: unknown[]; problems: Array<{ code: string; member: string }> };
    expect(ready.members).toHaveLength(5);
    expect(ready.problems.map((p) => [p.code, p.member.length > 40 ? p.member.length : p.member])).toEqual([
      ['INBOX_SHARED', 'cafè'],
      ['NAME_TOO_LONG', 300],
    ]);
  });

  it('broadcast checks every recipient before writing any: refused, nobody got a copy', async () => {
    await mailroomOk(dir.path, 'team', 'send', 'bob', 'first', '--team', 't');
    const before = await readFile(`${dir.path}/teams/t/inboxes/bob.json`, 'utf8');
    const run = await mailroom(dir.path, 'team', 'broadcast', 'hello all', '--team', 't');
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('NAME_TOO_LONG');
    expect(await readFile(`${dir.path}/teams/t/inboxes/bob.json`, 'utf8')).toBe(before);
  });

  it('doctor reports the too-long name and the two members sharing caf-.json', async () => {
    const run = await mailroom(dir.path, 'doctor', '--json');
    const report = JSON.parse(run.stdout) as { findings: Array<{ kind: string; team?: string; message: string; path?: string }> };
    const names = report.findings.filter((f) => f.kind === 'name-too-long' || f.kind === 'inbox-collision');
    expect(names.map((f) => [f.kind, f.team])).toEqual([
      ['name-too-long', 't'],
      ['inbox-collision', 't'],
    ]);
    expect(names[0]!.message).toContain('300 characters');
    expect(names[1]!.message).toContain('"café" and "cafè"');
    expect(names[1]!.path).toBe(`${dir.path}/teams/t/inboxes/caf-.json`);
    expect(run.code).toBe(7);
  });
});
