/**
 * mailroom's member records (`<root>/mailroom/members/<team>/<agent>.json`, docs/format.md
 * "Member records"): written by every registration with how the member runs and its prompt,
 * removed with the member, never overwritten when they do not parse (doctor moves them aside), and
 * moved aside with the team by `team delete`.
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam, deleteTeam, doctor, openFsStores, removeMember, showTeam, spawnMember, type Stores, type TeamConfig } from '../../../src/index.js';
import { joinTeam } from '../../../src/mcp/join.js';
import { readJsonFile, teamPaths, writeJsonAtomic } from '../../helpers/claude-writer.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
let store: Stores;
beforeEach(async () => {
  dir = await makeTempDir();
  store = openFsStores(dir.path);
  await createTeam({ root: store, team: 't' });
});

/** Changes config.json the way Claude Code does: outside mailroom (so no member record follows). */
async function claudeEditsConfig(change: (config: TeamConfig) => void): Promise<void> {
  const path = teamPaths(dir.path, 't').config;
  const config = await readJsonFile<TeamConfig>(path);
  change(config);
  await writeJsonAtomic(path, config);
}
afterEach(() => dir.cleanup());

const recordPath = (name: string) => join(dir.path, 'mailroom', 'members', 't', `${name}.json`);

describe('member records', () => {
  it('are written on every registration, with how the member runs and its prompt, in a fixed key order', async () => {
    const alice = await spawnMember({ root: store, team: 't', name: 'alice', prompt: 'Write the parser' });
    await spawnMember({ root: store, team: 't', name: 'bob', backend: 'process' });
    await joinTeam({ store, team: 't', name: 'codex' });
    const record = JSON.parse(await readFile(recordPath('alice'), 'utf8')) as Record<string, unknown>;
    expect(record).toEqual({ v: 1, team: 't', name: 'alice', agentId: 'alice@t', joinedAt: alice.joinedAt, runtime: 'in-process', prompt: 'Write the parser' });
    expect(Object.keys(record)).toEqual(['v', 'team', 'name', 'agentId', 'joinedAt', 'runtime', 'prompt']);
    expect((await store.team.readMemberRecords('t')).map((r) => [r.name, r.runtime])).toEqual([
      ['alice', 'in-process'],
      ['bob', 'process'],
      ['codex', 'mcp'],
    ]);
    expect((await showTeam({ root: store, team: 't' })).members.map((m) => [m.name, m.runtime])).toEqual([
      ['team-lead', undefined],
      ['alice', 'in-process'],
      ['bob', 'process'],
      ['codex', 'mcp'],
    ]);
  });

  it('go with their member, and a record of an earlier member of the name is not taken for the new one', async () => {
    await spawnMember({ root: store, team: 't', name: 'alice', backend: 'process' });
    await removeMember({ root: store, team: 't', name: 'alice' });
    expect((await store.team.readMemberRecords('t')).find((r) => r.name === 'alice')).toBeUndefined();
    expect(await readFile(recordPath('alice'), 'utf8').catch(() => 'gone')).toBe('gone');
    // Claude Code removing a member leaves its record; a later member of the name has its own joinedAt.
    await spawnMember({ root: store, team: 't', name: 'bob', backend: 'process' });
    await claudeEditsConfig((c) => void (c.members = c.members.filter((m) => m.name !== 'bob')));
    await claudeEditsConfig((c) => void c.members.push({ agentId: 'bob@t', name: 'bob', joinedAt: 1, tmuxPaneId: '%4', backendType: 'tmux' }));
    expect((await showTeam({ root: store, team: 't' })).members.find((m) => m.name === 'bob')).toMatchObject({ backendType: 'tmux' });
    expect((await showTeam({ root: store, team: 't' })).members.find((m) => m.name === 'bob')).not.toHaveProperty('runtime');
  });

  it('one that does not parse is never overwritten: the spawn is refused before anything is written, doctor moves it aside', async () => {
    await mkdir(join(dir.path, 'mailroom', 'members', 't'), { recursive: true });
    await writeFile(recordPath('alice'), '{"v": 1, "team": "t", "na');
    const before = await readFile(join(dir.path, 'teams', 't', 'config.json'), 'utf8');
    await expect(spawnMember({ root: store, team: 't', name: 'alice' })).rejects.toMatchObject({ code: 'FILE_CORRUPT' });
    expect(await readFile(join(dir.path, 'teams', 't', 'config.json'), 'utf8')).toBe(before);
    const report = await doctor({ root: store, fix: true });
    expect(report.findings.map((f) => [f.kind, f.path])).toEqual([['corrupt-file', recordPath('alice')]]);
    expect(report.remaining).toBe(0);
    await spawnMember({ root: store, team: 't', name: 'alice' });
    expect((await readdir(join(dir.path, 'mailroom', 'members', 't'))).sort()).toEqual(['alice.json', expect.stringMatching(/^alice\.json\.corrupt-/)]);
  });

  it('move aside with the team on team delete, so a new team of the name starts without them', async () => {
    await spawnMember({ root: store, team: 't', name: 'alice' });
    await deleteTeam({ root: store, team: 't' });
    const [deleted] = await readdir(join(dir.path, 'mailroom', 'deleted'));
    expect(await readdir(join(dir.path, 'mailroom', 'deleted', deleted!, 'members'))).toEqual(['alice.json']);
    await createTeam({ root: store, team: 't' });
    expect(await store.team.readMemberRecords('t')).toEqual([]);
  });
});
