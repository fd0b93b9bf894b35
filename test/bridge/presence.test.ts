/**
 * Presence across the bridge (docs/bridge.md "Members") and Claude Code's clean-up at exit: a remote
 * member's `isActive` on this machine follows its reader claim (false once the claim died or was
 * given up), a local member's `isActive` reaches Redis and the other machine, and neither 2.1.332's
 * tombstone rename nor 2.1.109's removal of the team and task directories deletes anything shared.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamConfig } from '../../src/protocol/config.js';
import { underClaudeLock } from '../helpers/claude-locked.js';
import { until } from '../helpers/runtime.js';
import { TEAM, twoMachines, type TwoMachines } from './setup.js';

let t: TwoMachines | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const config = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as TeamConfig;
const activeOf = async (path: string, name: string) => (await config(path)).members.find((m) => m.name === name)?.isActive;
const holder = { kind: 'agent' as const, host: 'b-host', pid: 4242, startedAt: 1 };

async function withWorker(): Promise<TwoMachines> {
  const two = await twoMachines({ tasks: true });
  await two.a.start();
  await two.b.start();
  await two.b.remote.team.addMember(TEAM, { agentId: `worker@${TEAM}`, name: 'worker', joinedAt: Date.now(), tmuxPaneId: '', cwd: '/', subscriptions: [] });
  await until(async () => (await config(two.a.config)).members.some((m) => m.name === 'worker'), 10_000, 'worker on A');
  return two;
}

describe('bridge presence', () => {
  it('a remote member whose claim dies (no beats) turns isActive false on the other root', async () => {
    t = await withWorker();
    const claim = await t.b.remote.team.claimReader(TEAM, 'worker', holder, { ttlMs: 800 });
    // It beats until A shows it active (a loaded machine may take longer than one ttl to carry the
    // claim over), then stops: from there only its claim's death can turn it inactive.
    const beats = setInterval(() => void t?.b.remote.team.beat(TEAM, 'worker', claim.value.token, 'working').catch(() => undefined), 200);
    try {
      await until(async () => (await activeOf(t!.a.config, 'worker')) === true, 10_000, 'worker active on A');
    } finally {
      clearInterval(beats);
    }
    await until(async () => (await activeOf(t!.a.config, 'worker')) === false, 10_000, 'worker inactive on A after its claim died');
  });

  it('a remote member that gives its claim up (stopped) turns isActive false on the other root', async () => {
    t = await withWorker();
    const claim = await t.b.remote.team.claimReader(TEAM, 'worker', holder);
    await until(async () => (await activeOf(t!.a.config, 'worker')) === true, 10_000, 'worker active on A');
    await t.b.remote.team.releaseReader(TEAM, 'worker', claim.value.token);
    await until(async () => (await activeOf(t!.a.config, 'worker')) === false, 10_000, 'worker inactive on A after it stopped');
  });

  it('a local member going idle in Claude Code (isActive false) reaches Redis and the other root', async () => {
    t = await twoMachines();
    await t.a.start();
    await t.b.start();
    await until(async () => (await config(t!.b.config)).members.some((m) => m.name === 'observer'), 10_000, 'observer on B');
    await underClaudeLock<TeamConfig>(t.a.config, (c) => ({ ...c, members: c.members.map((m) => (m.name === 'observer' ? { ...m, isActive: false } : m)) }));
    await until(async () => (await t!.a.remote.team.readConfig(TEAM)).members.find((m) => m.name === 'observer')?.isActive === false, 10_000, 'inactive in Redis');
    await until(async () => (await activeOf(t!.b.config, 'observer')) === false, 10_000, 'inactive on B');
    await underClaudeLock<TeamConfig>(t.a.config, (c) => ({ ...c, members: c.members.map((m) => (m.name === 'observer' ? { ...m, isActive: true } : m)) }));
    await until(async () => (await activeOf(t!.b.config, 'observer')) === true, 10_000, 'active again on B');
  });

  it("2.1.332's tombstone rename at exit (teams/<team>.deleted-<uuid>, then removed; tasks left) deletes nothing shared", async () => {
    t = await twoMachines({ tasks: true });
    await t.a.start();
    await t.b.start();
    await until(async () => (await t!.b.remote.team.listTasks(TEAM)).length === 2, 10_000, 'board in Redis');
    const tomb = join(t.a.root, 'teams', `${TEAM}.deleted-${randomUUID()}`);
    await rename(join(t.a.root, 'teams', TEAM), tomb);
    await until(() => t!.a.statuses.some((s) => s.kind === 'local-missing'), 10_000, 'local-missing');
    await rm(tomb, { recursive: true, force: true });
    await t.a.bridge!.idle();
    const shared = await t.a.remote.team.readConfig(TEAM);
    expect(shared.members.map((m) => m.name)).toEqual(['team-lead', 'observer']);
    expect((await t.a.remote.team.listTasks(TEAM)).map((x) => x.id)).toEqual(['1', '2']);
    expect((await config(t.b.config)).members.map((m) => m.name)).toEqual(['team-lead', 'observer']);
  });

  it("2.1.109's removal of the team and its task list at exit deletes no shared task", async () => {
    t = await twoMachines({ tasks: true });
    await t.a.start();
    await t.b.start();
    await until(async () => (await readFile(t!.b.task('2'), 'utf8').catch(() => undefined)) !== undefined, 10_000, 'board on B');
    // Its order: the team directory, then the task list (reference §2 "Deleting a team").
    await rm(join(t.a.root, 'teams', TEAM), { recursive: true, force: true });
    await rm(join(t.a.root, 'tasks', TEAM), { recursive: true, force: true });
    await until(() => t!.a.statuses.some((s) => s.kind === 'local-missing'), 10_000, 'local-missing');
    await t.a.bridge!.idle();
    await t.b.bridge!.idle();
    expect((await t.a.remote.team.listTasks(TEAM)).map((x) => x.id)).toEqual(['1', '2']);
    expect(await readFile(t.b.task('2'), 'utf8')).toContain('"id": "2"');
  });
});
