/**
 * Case 10 (../shared/cases/10-names.md): team names `研究チーム`, `Alpha Team`, `../x`, `a/b`, a name
 * with a newline; agent names `研究员`, `工程师`, `café` (NFC) and `café` (NFD), `Researcher` and
 * `researcher`, `team-lead` as a new teammate, `..`, and a 300-character name.
 * Expected: nothing is ever written outside <root>/teams and <root>/tasks; two different names
 * never share a directory or inbox file; every refused name gets an error that states the allowed
 * form and suggests a valid name (here: one that the next command accepts).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, mailroom, mailroomOk, readJson, snapshotBytes } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const FORM = '^[a-z0-9][a-z0-9-]{0,63}$';
const TEAM_NAMES = ['研究チーム', 'Alpha Team', '../x', 'a/b', 'a\nb'];
const AGENT_NAMES = ['研究员', '工程师', 'caf\u00e9', 'cafe\u0301', 'Researcher', 'team-lead', '..', 'R'.repeat(300)];

let tmp: TempDir;
let root: string;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-case10-');
  root = join(tmp.path, 'root');
  await mailroomOk(root, 'team', 'create', 't');
  await mailroomOk(root, 'team', 'spawn', 'researcher', '--prompt', 'You are researcher.');
});
afterAll(() => tmp.cleanup());

interface Refusal {
  code: string;
  message: string;
  details: { suggestion: string; pattern: string };
}

/** Runs a command that must be refused with INVALID_NAME; returns the error. */
async function refused(...args: string[]): Promise<Refusal> {
  const run = await mailroom(root, ...args, '--json');
  expect(run.code, run.stderr).toBe(2);
  const { error } = JSON.parse(run.stderr) as { error: Refusal };
  expect(error.code).toBe('INVALID_NAME');
  expect(error.message).toContain(FORM);
  expect(error.details.suggestion).toMatch(new RegExp(FORM));
  expect(error.message).toContain(`Try "${error.details.suggestion}"`);
  return error;
}

describe('team names', () => {
  it.each(TEAM_NAMES)('%j is refused with the form and a suggestion that team create then accepts', async (name) => {
    const error = await refused('team', 'create', name);
    await mailroomOk(root, 'team', 'create', error.details.suggestion);
  });
});

describe('agent names', () => {
  it.each(AGENT_NAMES)('%j is refused with the form and a suggestion that team spawn then accepts', async (name) => {
    const error = await refused('team', 'spawn', name, '--team', 't', '--prompt', `You were ${name}.`);
    if (name === 'team-lead') expect(error.message).toContain('reserved');
    await mailroomOk(root, 'team', 'spawn', error.details.suggestion, '--team', 't', '--prompt', `You were ${name}.`);
  });

  it('Researcher is not offered the taken name researcher', async () => {
    const config = await readJson<{ members: { name: string }[] }>(join(root, 'teams/t/config.json'));
    expect(config.members.map((m) => m.name)).toContain('researcher-2');
  });

  it('café in NFC and in NFD became two different members', async () => {
    const config = await readJson<{ members: { name: string }[] }>(join(root, 'teams/t/config.json'));
    expect(config.members.map((m) => m.name).filter((n) => n.startsWith('cafe'))).toEqual(['cafe', 'cafe-2']);
  });

  it.each(['../x', '..', 'a/b', '../../etc/passwd'])('sending to or reading %j finds no member and writes nothing', async (name) => {
    const before = await snapshotBytes(root);
    const [send, inbox, team] = await Promise.all([
      mailroom(root, 'team', 'send', name, 'hi', '--team', 't'),
      mailroom(root, 'inbox', name, '--team', 't'),
      mailroom(root, 'team', 'show', name),
    ]);
    expect([send.code, inbox.code, team.code]).toEqual([3, 3, 3]);
    expect(send.stderr).toContain('MEMBER_NOT_FOUND');
    expect(team.stderr).toContain('TEAM_NOT_FOUND');
    expect(await snapshotBytes(root)).toEqual(before);
  });
});

describe('the store afterwards', () => {
  it('holds nothing outside <root>/teams and <root>/tasks (and mailroom’s own <root>/mailroom)', async () => {
    expect(await readdir(tmp.path)).toEqual(['root']);
    const top = (await readdir(root)).sort();
    expect(top.filter((d) => d !== 'mailroom')).toEqual(['tasks', 'teams']);
    // mailroom's journal, archive and member records (docs/format.md): every file there is named after a valid team (and member).
    const own = top.includes('mailroom') ? await listFiles(join(root, 'mailroom')) : [];
    for (const f of own) expect(f).toMatch(/^((journal|archive)\/[a-z0-9][a-z0-9-]{0,63}(\.ndjson|\/[a-z0-9][a-z0-9-]{0,63}\.ndjson)|members\/[a-z0-9][a-z0-9-]{0,63}\/[a-z0-9][a-z0-9-]{0,63}\.json)$/);
  });

  it('has one directory per team, each named exactly as its team', async () => {
    const teams = (await readdir(join(root, 'teams'))).sort();
    const tasks = (await readdir(join(root, 'tasks'))).sort();
    expect(teams).toEqual(tasks);
    expect(teams).toHaveLength(1 + TEAM_NAMES.length);
    for (const dir of teams) {
      expect(dir).toMatch(new RegExp(FORM));
      expect(await readJson(join(root, 'teams', dir, 'config.json'))).toMatchObject({ name: dir });
    }
  });

  it('gives every member its own inbox file, named exactly as the member', async () => {
    const config = await readJson<{ members: { name: string }[] }>(join(root, 'teams/t/config.json'));
    const names = config.members.map((m) => m.name);
    expect(names).toHaveLength(2 + AGENT_NAMES.length);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    const inboxes = await listFiles(join(root, 'teams/t/inboxes'));
    expect(inboxes.sort()).toEqual(names.filter((n) => n !== 'team-lead').map((n) => `${n}.json`).sort());
    for (const n of names.filter((x) => x !== 'team-lead')) {
      const [first] = await readJson<{ text: string }[]>(join(root, `teams/t/inboxes/${n}.json`));
      expect(first!.text.startsWith('You ')).toBe(true);
    }
  });
});
