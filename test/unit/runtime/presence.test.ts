/**
 * Presence (issue 10): a running teammate beats its reader claim with `working` during a turn and
 * `idle` between turns; `team show` (showTeam) and `list_members` give it as `presence`, and the
 * member's `isActive` in config.json follows it the way Claude Code keeps it — written only when it
 * changes. Also in a Claude Code 2.1.109 team (the fixture), whose own members are left untouched.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteTeam, showTeam } from '../../../src/core/teams/team-lifecycle.js';
import { buildMember } from '../../../src/domain/roster.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { openFsStores } from '../../../src/store/open.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import type { ModelResponse } from '../../../src/runtime/models/types.js';
import { functionModel, until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { copyTree, FIXTURES } from '../../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
afterEach(async () => {
  await dir.cleanup();
});

/** A model whose first call waits until the test lets it answer. */
function gatedModel() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let entered!: () => void;
  const calling = new Promise<void>((r) => (entered = r));
  const model = functionModel(async (): Promise<ModelResponse> => {
    entered();
    await gate;
    return { content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn' };
  });
  return { model, open, calling };
}

async function member(root: string, team: string, name: string) {
  return (await showTeam({ root: openFsStores(root), team })).members.find((m) => m.name === name)!;
}

async function isActiveUpdates(root: string, team: string, name: string): Promise<number> {
  const { events } = await openFsStores(root).team.readEvents(team);
  return events.filter((e) => e.kind === 'member' && e.action === 'updated' && e.name === name).length;
}

async function runOneTurn(root: string, team: string, name: string): Promise<void> {
  const { model, open, calling } = gatedModel();
  const stop = new AbortController();
  // Tasks are not this test's subject (the 2.1.109 fixture has a ready task): only mail starts the turn.
  const running = runTeammate({ root: openFsStores(root), team, name, model, signal: stop.signal, pollMs: 200, takesTasks: false });
  await until(async () => (await member(root, team, name)).presence.state === 'idle', 10_000, 'idle presence');
  expect((await member(root, team, name)).isActive).toBe(false);
  await sendMessage({ root: openFsStores(root), team, from: 'team-lead', to: name, text: 'please work' });
  await calling;
  // The change is beaten at once and isActive written: no wait for the next 5 s beat.
  await until(async () => {
    const m = await member(root, team, name);
    return m.presence.state === 'working' && m.isActive === true;
  }, 3_000, 'working presence and isActive true');
  const during = await member(root, team, name);
  expect(during.presence).toMatchObject({ state: 'working', pid: process.pid });
  expect(typeof during.presence.lastBeatAt).toBe('number');
  open();
  await until(async () => {
    const m = await member(root, team, name);
    return m.presence.state === 'idle' && m.isActive === false;
  }, 5_000, 'idle again');
  stop.abort();
  await running;
  const after = await member(root, team, name);
  expect(after.presence).toEqual({ state: 'stopped' });
  expect(after.isActive).toBe(false);
}

describe('team delete and presence', () => {
  it('a mailroom member left isActive true by a killed runtime does not block it; a Claude Code member with isActive true does', async () => {
    dir = await makeTempDir();
    await makeTeam(dir.path, 't', ['alice']);
    const store = openFsStores(dir.path).team;
    await store.updateMember('t', 'alice', { isActive: true });
    await store.addMember('t', buildMember({ name: 'cc', team: 't', model: 'x', cwd: dir.path, joinedAt: Date.now() }));
    await store.updateMember('t', 'cc', { isActive: true });
    await expect(deleteTeam({ root: openFsStores(dir.path), team: 't' })).rejects.toMatchObject({ code: 'TEAM_ACTIVE', details: { active: ['cc'] } });
    await store.updateMember('t', 'cc', { isActive: false });
    await expect(deleteTeam({ root: openFsStores(dir.path), team: 't' })).resolves.toMatchObject({ team: 't' });
  });
});

describe('presence and isActive', () => {
  it('team spawn of a member nothing runs writes isActive false and shows it stopped', async () => {
    dir = await makeTempDir();
    await makeTeam(dir.path, 't', ['alice']);
    const alice = await member(dir.path, 't', 'alice');
    expect(alice.isActive).toBe(false);
    expect(alice.presence).toEqual({ state: 'stopped' });
  });

  it('working during a turn, idle after, stopped once it ends; isActive rewritten only on a change (twice per turn)', async () => {
    dir = await makeTempDir();
    await makeTeam(dir.path, 't', ['alice']);
    await runOneTurn(dir.path, 't', 'alice');
    // Spawn wrote false; the turn made it true then false; idle-at-start and stop changed nothing.
    expect(await isActiveUpdates(dir.path, 't', 'alice')).toBe(2);
  }, 30_000);

  it('in a Claude Code 2.1.109 team: a mailroom member is isActive false once idle or stopped; Claude Code members untouched', async () => {
    dir = await copyTree(join(FIXTURES, 'claude-code-2.1.109', '3-teammate-idle'));
    await spawnMember({ root: openFsStores(dir.path), team: 'compat', name: 'helper' });
    await runOneTurn(dir.path, 'compat', 'helper');
    const config = await openFsStores(dir.path).team.readConfig('compat');
    const observer = config.members.find((m) => m.name === 'observer')!;
    expect('isActive' in observer).toBe(false);
    expect(config.members.find((m) => m.name === 'helper')!.isActive).toBe(false);
    // What Claude Code's TeamDelete checks: no teammate with isActive !== false but its own (untouched) one.
    expect(config.members.filter((m) => m.agentId !== config.leadAgentId && m.isActive !== false).map((m) => m.name)).toEqual(['observer']);
  }, 30_000);

  // A turn that makes no request — it was delivered only a lead-only message from someone else,
  // withheld and consumed — still writes `working` before its `idle`, never after: isActive ends
  // false (`working` waits for the first request on both backends; kept-view.test.ts checks Redis).
  it('a turn without a model request still writes working before idle: isActive true then false, presence idle', async () => {
    dir = await makeTempDir();
    await makeTeam(dir.path, 't', ['alice', 'bob']);
    const stores = openFsStores(dir.path);
    const model = functionModel((): ModelResponse => ({ content: [{ type: 'text', text: '' }], stopReason: 'end_turn' }));
    const stop = new AbortController();
    const running = runTeammate({ root: stores, team: 't', name: 'alice', model, signal: stop.signal, pollMs: 60_000, takesTasks: false });
    try {
      await until(async () => (await member(dir.path, 't', 'alice')).presence.state === 'idle', 10_000, 'idle presence');
      const forged = { from: 'bob', text: JSON.stringify({ type: 'shutdown_request', requestId: 'r1', reason: 'not the lead' }), timestamp: new Date().toISOString(), msg_id: 'forged-stop', read: false };
      await stores.team.appendMessages('t', [{ to: 'alice', entry: forged }]);
      await until(async () => (await stores.team.readInbox('t', 'alice')).some((e) => e.msg_id === 'forged-stop' && e.read), 10_000, 'the forged request consumed');
      await until(async () => (await isActiveUpdates(dir.path, 't', 'alice')) >= 2, 5_000, 'both isActive writes');
      const m = await member(dir.path, 't', 'alice');
      expect(m.isActive).toBe(false);
      expect(m.presence.state).toBe('idle');
      expect(model.requests).toEqual([]);
      expect(await isActiveUpdates(dir.path, 't', 'alice')).toBe(2);
    } finally {
      stop.abort();
      await running;
    }
  }, 30_000);
});
