/**
 * Claude Code 2.1.332 removes a team at session end by renaming `teams/<team>` to
 * `teams/<team>.deleted-<uuid>` and deleting that (snapshot 5-cleanup-tombstone). The store never
 * lists such a tombstone as a team, doctor never looks into it, and `teamRemoval` says a team is
 * being removed only for a tombstone of the same team (same lead session).
 */
import { cp, mkdir, rename, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doctor } from '../../../src/core/doctor/doctor.js';
import { resolveTeam } from '../../../src/core/teams/team-lifecycle.js';
import { FsTeamStore } from '../../../src/store/fs/team-store.js';
import { TOMBSTONE_PATTERN, tombstoneOf } from '../../../src/store/fs/names.js';
import { REFERENCE_2_1_332, SESSION_TEAM_2_1_332, copyTree } from '../../helpers/store-files.js';
import { patchJson } from '../../helpers/claude-writer.js';
import type { TempDir } from '../../helpers/temp-dir.js';
import { openFsStores } from '../../../src/store/open.js';

const TOMBSTONE = 'session-0e1bac49.deleted-eb15f105-8efb-4341-86f3-1096a068cfb1';

describe('tombstone names', () => {
  it.each([
    [TOMBSTONE, 'session-0e1bac49'],
    ['compat.deleted-EB15F105-8EFB-4341-86F3-1096A068CFB1', 'compat'],
    ['a.b.deleted-00000000-0000-0000-0000-000000000000', 'a.b'],
  ])('%s is the tombstone of %s', (dir, team) => {
    expect(tombstoneOf(dir)).toBe(team);
    expect(TOMBSTONE_PATTERN.test(dir)).toBe(true);
  });

  it.each(['session-0e1bac49', 'x.deleted-eb15f105', 'x-deleted-eb15f105-8efb-4341-86f3-1096a068cfb1', 'x.deleted-eb15f105-8efb-4341-86f3-1096a068cfb1.old', 'x.deleted-zb15f105-8efb-4341-86f3-1096a068cfb1'])('%s is no tombstone', (dir) => {
    expect(tombstoneOf(dir)).toBeUndefined();
  });
});

describe('a store holding a tombstone', () => {
  let dir: TempDir;
  let store: FsTeamStore;
  beforeEach(async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, '5-cleanup-tombstone'));
    store = new FsTeamStore(dir.path);
  });
  afterEach(() => dir.cleanup());

  it('lists and resolves the live team once', async () => {
    expect(await store.listTeams()).toEqual([{ name: 'session-0e1bac49' }]);
    expect(await resolveTeam({ root: openFsStores(dir.path) })).toBe('session-0e1bac49');
  });

  it('reports the team as being removed, from its tombstone', async () => {
    expect(await store.teamRemoval('session-0e1bac49')).toEqual({ location: join(dir.path, 'teams', TOMBSTONE) });
    expect(await store.teamRemoval('compat')).toBeUndefined();
  });

  it('does not take a tombstone of an earlier team of the name (another lead session) for a removal', async () => {
    await patchJson<{ leadSessionId: string }>(join(dir.path, 'teams', 'session-0e1bac49', 'config.json'), (c) => void (c.leadSessionId = '11111111-2222-4333-8444-555555555555'));
    expect(await store.teamRemoval('session-0e1bac49')).toBeUndefined();
  });

  it('reports a removal when only the tombstone is left', async () => {
    await rename(join(dir.path, 'teams', 'session-0e1bac49'), join(dir.path, 'gone'));
    expect(await store.listTeams()).toEqual([]);
    expect(await store.teamRemoval('session-0e1bac49')).toEqual({ location: join(dir.path, 'teams', TOMBSTONE) });
  });

  it('doctor looks only at the live team, and never into the tombstone', async () => {
    // A lock left in the tombstone (stale by its age) is Claude Code's business, mid-removal.
    const lock = join(dir.path, 'teams', TOMBSTONE, 'inboxes', 'team-lead.json.lock');
    await mkdir(lock);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(lock, hourAgo, hourAgo);
    const report = await doctor({ root: openFsStores(dir.path) });
    expect(report.findings.map((f) => [f.kind, f.severity, f.message])).toEqual([
      ['orphan-inbox', 'info', 'Inbox "observer" belongs to no member of team "session-0e1bac49" (0 messages, all read: kept as history).'],
    ]);
  });
});

describe('a 2.1.332 team whose tombstone sits next to it', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, '3-teammate-idle'));
    await cp(join(dir.path, 'teams', SESSION_TEAM_2_1_332), join(dir.path, 'teams', `${SESSION_TEAM_2_1_332}.deleted-eb15f105-8efb-4341-86f3-1096a068cfb1`), { recursive: true });
  });
  afterEach(() => dir.cleanup());

  it('is listed once', async () => {
    expect((await new FsTeamStore(dir.path).listTeams()).map((t) => t.name)).toEqual([SESSION_TEAM_2_1_332]);
  });
});
