/**
 * Issue 23 item 3: a corrupt `teams/<team>/config.json`. `team list` printed "(no teams)", `send`
 * said "No team exists yet", `doctor --fix` moved the file aside and then reported "No problems
 * found" although the team's inboxes still held mail, and `team create` revived the team with the
 * lead only. Now the team is named as unreadable (exit 7, with the fix), other teams are still
 * listed, nothing unparseable is overwritten, and `doctor --fix` rebuilds the roster from the
 * journal, member records and inboxes (also when config.json is missing). Real CLI processes.
 */
import { readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const BROKEN = '{"name": "bb", broken';

let dir: TempDir;
let config: string;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'aa');
  await mailroomOk(dir.path, 'team', 'create', 'bb');
  await mailroomOk(dir.path, '--team', 'bb', 'team', 'spawn', 'alice');
  await mailroomOk(dir.path, '--team', 'bb', 'team', 'spawn', 'bob');
  await mailroomOk(dir.path, '--team', 'bb', 'team', 'send', 'alice', 'the mail that must not be lost');
  await mailroomOk(dir.path, '--team', 'bb', 'team', 'stop', 'bob', '--force');
  config = `${dir.path}/teams/bb/config.json`;
});
afterEach(async () => dir.cleanup());

interface Report {
  findings: Array<{ kind: string; path?: string; repair?: { done: boolean; note: string; movedTo?: string } }>;
  remaining: number;
}

describe('a corrupt config.json', () => {
  it('team list lists the readable teams, names the unreadable one once on stderr with the fix, and exits 7', async () => {
    await writeFile(config, BROKEN);
    const list = await mailroom(dir.path, 'team', 'list');
    expect(list.code).toBe(7);
    // As `ls` does: what can be listed on stdout, each failure once on stderr (new-user trial: it was
    // named three times — a list line, a "skipping team directory" warning and the error).
    expect(list.stdout).toBe('aa\n');
    expect(list.stderr).toMatch(/^mailroom: FILE_CORRUPT: A team cannot be read \(team bb: .*config\.json is not valid JSON/);
    expect(list.stderr).toContain('doctor --fix');
    expect(list.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(list.stderr.match(/bb\/config\.json/g)).toHaveLength(1);
    const json = await mailroom(dir.path, 'team', 'list', '--json');
    expect(json.code).toBe(7);
    expect(JSON.parse(json.stdout)).toEqual(['aa']);
    expect(await readFile(config, 'utf8')).toBe(BROKEN);
  });

  it('a command without --team does not pick the only readable team, and team create never overwrites the file', async () => {
    await writeFile(config, BROKEN);
    const send = await mailroom(dir.path, 'team', 'send', 'alice', 'hi');
    expect(send.code).not.toBe(0);
    expect(send.stderr).toBe(`mailroom: TEAM_AMBIGUOUS: Several teams exist (aa; bb cannot be read: run \`mailroom --root ${dir.path} doctor\`): pass --team <team> or set MAILROOM_TEAM.\n`);
    const create = await mailroom(dir.path, 'team', 'create', 'bb');
    expect(create.code).toBe(7);
    expect(create.stderr).toContain('FILE_CORRUPT');
    expect(create.stderr).toContain('rebuild the roster');
    expect(await readFile(config, 'utf8')).toBe(BROKEN);
  });

  it('with two readable teams, one message: TEAM_AMBIGUOUS naming them, the unreadable one named once (no skip warning beside it)', async () => {
    await mailroomOk(dir.path, 'team', 'create', 'cc');
    await writeFile(config, BROKEN);
    const send = await mailroom(dir.path, 'team', 'send', 'alice', 'hi');
    expect(send.code).toBe(2);
    expect(send.stderr).toBe(`mailroom: TEAM_AMBIGUOUS: Several teams exist (aa, cc; bb cannot be read: run \`mailroom --root ${dir.path} doctor\`): pass --team <team> or set MAILROOM_TEAM.\n`);
    const json = await mailroom(dir.path, '--json', 'team', 'send', 'alice', 'hi');
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'TEAM_AMBIGUOUS', details: { teams: ['aa', 'cc'], unreadable: ['bb'] } } });
    expect(json.stderr.trimEnd().split('\n')).toHaveLength(1);
    // Named with --team, a readable team is used as before.
    const named = await mailroom(dir.path, '--team', 'aa', 'team', 'send', 'team-lead', 'hi');
    expect(named.code, named.stderr).toBe(0);
    expect(await readFile(config, 'utf8')).toBe(BROKEN);
  });

  it('doctor reports it until --fix rebuilds the roster from what is left; the file is kept beside', async () => {
    await writeFile(config, BROKEN);
    const check = await mailroom(dir.path, 'doctor', '--json');
    expect(check.code).toBe(7);
    const finding = (JSON.parse(check.stdout) as Report).findings.find((f) => f.path === config);
    expect(finding?.kind).toBe('corrupt-file');
    expect((await mailroom(dir.path, 'doctor')).code).toBe(7); // still there: nothing was repaired

    const fix = await mailroom(dir.path, 'doctor', '--fix', '--json');
    expect(fix.code).toBe(0);
    const repair = (JSON.parse(fix.stdout) as Report).findings.find((f) => f.path === config)?.repair;
    expect(repair?.done).toBe(true);
    expect(repair?.note).toContain('rebuilt config.json of team bb with 2 members (team-lead, alice)');
    expect(await readFile(repair!.movedTo!, 'utf8')).toBe(BROKEN);

    const show = JSON.parse((await mailroomOk(dir.path, 'team', 'show', 'bb', '--json')).stdout) as { members: Array<{ name: string; agentId: string }> };
    expect(show.members.map((m) => [m.name, m.agentId])).toEqual([['team-lead', 'team-lead@bb'], ['alice', 'alice@bb']]); // bob left: not revived
    const inbox = JSON.parse((await mailroomOk(dir.path, '--team', 'bb', 'inbox', 'alice', '--json')).stdout) as { messages: Array<{ entry: { text: string } }> };
    expect(inbox.messages.map((m) => m.entry.text)).toContain('the mail that must not be lost');
    expect((await mailroomOk(dir.path, 'team', 'list')).stdout).toBe('aa\nbb\n');
    expect((await mailroom(dir.path, 'doctor')).code).toBe(0);
  });

  it('a team directory with inboxes and no config.json is unreadable too, and --fix rebuilds it', async () => {
    await rm(config);
    const list = await mailroom(dir.path, 'team', 'list');
    expect(list.code).toBe(7);
    expect(list.stdout).toBe('aa\n');
    expect(list.stderr).toContain('team bb:');
    expect(list.stderr).toContain('is missing while');
    const create = await mailroom(dir.path, 'team', 'create', 'bb');
    expect(create.code).toBe(7);
    expect(create.stderr).toContain('doctor --fix');
    const show = await mailroom(dir.path, 'team', 'show', 'bb');
    expect(show.code).toBe(7);
    expect(await readdir(`${dir.path}/teams/bb`)).not.toContain('config.json');

    const report = JSON.parse((await mailroom(dir.path, 'doctor', '--json')).stdout) as Report;
    expect(report.findings.map((f) => f.kind)).toContain('missing-config');
    expect((await mailroom(dir.path, 'doctor', '--fix')).code).toBe(0);
    const roster = JSON.parse(await readFile(config, 'utf8')) as { name: string; members: Array<{ name: string }> };
    expect(roster.name).toBe('bb');
    expect(roster.members.map((m) => m.name)).toEqual(['team-lead', 'alice']);
  });

  it('a team directory with neither config.json nor an inbox: team list notes it with the fix (exit 0), doctor reports it, --fix rebuilds it from the journal', async () => {
    // New-user trial, session 17: `team list` said "(no teams)" and doctor "No problems found".
    const stray = `${dir.path}/teams/aa`;
    await rm(`${stray}/config.json`);
    await rm(`${stray}/inboxes`, { recursive: true, force: true });
    await utimes(stray, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000)); // not a directory being created
    const list = await mailroom(dir.path, 'team', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe('bb\n');
    expect(list.stderr).toMatch(/^mailroom: aa: no config\.json in \S+\/teams\/aa \(and no inbox\), so no command sees this team\. Run `mailroom (--root \S+ )?doctor --fix` to rebuild its config from the team's journal, or remove the directory\.\n$/);
    // It hides no mail: "the only team" is still bb.
    expect((await mailroomOk(dir.path, 'team', 'show')).stdout).toContain('Team bb');
    const report = JSON.parse((await mailroom(dir.path, 'doctor', '--json')).stdout) as Report;
    expect(report.findings.find((f) => f.path === `${stray}/config.json`)?.kind).toBe('missing-config');
    expect((await mailroom(dir.path, 'doctor', '--fix')).code).toBe(0);
    expect((await mailroomOk(dir.path, 'team', 'list')).stdout).toBe('aa\nbb\n');
  });

  it('a team directory being created (younger than 2 s, no config yet) is not reported', async () => {
    await rm(`${dir.path}/teams/aa/config.json`);
    await rm(`${dir.path}/teams/aa/inboxes`, { recursive: true, force: true });
    const list = await mailroom(dir.path, 'team', 'list');
    expect({ code: list.code, stdout: list.stdout, stderr: list.stderr }).toEqual({ code: 0, stdout: 'bb\n', stderr: '' });
  });
});
