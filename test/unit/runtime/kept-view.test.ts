/**
 * A teammate keeps its guard's reads (config, settings, member records) between deliveries on a
 * store whose takes carry view stamps (src/runtime/delivery/team-view.ts; issue 24): Redis and files
 * (src/store/fs/view-stamp.ts), every test on both. It must still judge each
 * delivery by the team as it was when the message was taken. These tests try to break that: the
 * teammate's feed drops every `config` hint, so nothing tells it early that something changed and
 * only the stamp its take returns can — a change made just before a send (signing turned on, a
 * member re-keyed) must be honoured for that very message. A real redis-server, a real files root,
 * real stores, a real in-process teammate; its model only records what it is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { changePolicy } from '../../../src/core/teams/policy.js';
import { enableSigning, rekeyTeam } from '../../../src/core/trust/identity.js';
import { signOutgoing } from '../../../src/core/trust/message-signing.js';
import { makeInboxEntry } from '../../../src/protocol/inbox.js';
import { TeamView } from '../../../src/runtime/delivery/team-view.js';
import type { ModelResponse } from '../../../src/runtime/models/types.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { openStores } from '../../../src/store/open.js';
import type { Stores } from '../../../src/store/selection.js';
import type { StoreHint, TeamStore } from '../../../src/store/team-store.js';
import { startRedis, type RedisServer } from '../../helpers/redis-server.js';
import { functionModel, until } from '../../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { join } from 'node:path';

let redis: RedisServer;
let dir: TempDir;
const backends: Partial<Record<'redis' | 'fs', Stores>> = {};
/** The stores of the backend whose block runs (set by each block's beforeAll). */
let stores: Stores;
beforeAll(async () => {
  redis = await startRedis();
  dir = await makeTempDir('mailroom-kept-view-');
  backends.redis = await openStores({ kind: 'redis', url: redis.url, hostRoot: dir.path });
  backends.fs = await openStores({ kind: 'fs', root: join(dir.path, 'fs-root') });
});
afterAll(async () => {
  await backends.redis?.close();
  await backends.fs?.close();
  await redis?.stop();
  await dir?.cleanup();
});

/** `store` whose calls are counted by name, and whose watch drops `config` hints when `deaf`. */
function observed(store: TeamStore, deaf: boolean): { store: TeamStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      const name = String(key);
      return (...args: unknown[]) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        if (name === 'watch' && deaf) {
          const listener = args[1] as (hint: StoreHint) => void;
          return (value as (...a: unknown[]) => unknown).call(target, args[0], (hint: StoreHint) => hint.kind !== 'config' && listener(hint), ...args.slice(2));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

let teamNo = 0;

/** Runs `alice` in `team` on a feed that never hints `config`; her model records every request's text. */
function startAlice(team: string) {
  const deaf: Stores = { ...stores, team: observed(stores.team, true).store, close: async () => undefined };
  const model = functionModel((): ModelResponse => ({ content: [{ type: 'text', text: '' }], stopReason: 'end_turn' }));
  const lines: string[] = [];
  const controller = new AbortController();
  const running = runTeammate({ root: deaf, team, name: 'alice', model, signal: controller.signal, takesTasks: false, pollMs: 60_000, log: (l) => lines.push(l) });
  const seen = () => model.requests.map((r) => JSON.stringify(r.messages)).join('\n');
  return { seen, lines, stop: async () => (controller.abort(), await running) };
}

/** Waits until `alice`'s entry `msgId` is read: handed to the model and acknowledged, or withheld and consumed. */
async function consumed(team: string, msgId: string): Promise<void> {
  await until(async () => (await stores.team.readInbox(team, 'alice')).some((e) => e.msg_id === msgId && e.read), 10_000, `${msgId} consumed`);
}

/**
 * A signed team `<prefix><n>` with alice and bob, alice running (startAlice) and warmed up by a
 * signed message from bob with `text` (so her guard has judged the team once). The caller stops her.
 */
async function signedPairWarm(prefix: string, text: string) {
  const team = `${prefix}${++teamNo}`;
  await createTeam({ root: stores, team });
  await enableSigning({ root: stores, team });
  await spawnMember({ root: stores, team, name: 'alice', cwd: dir.path });
  await spawnMember({ root: stores, team, name: 'bob', cwd: dir.path });
  const alice = startAlice(team);
  try {
    const warm = await sendMessage({ root: stores, team, from: 'bob', to: 'alice', text });
    await consumed(team, warm.entry.msg_id!);
    expect(alice.seen()).toContain(text);
  } catch (err) {
    await alice.stop();
    throw err;
  }
  return { team, alice };
}

describe.each(['redis', 'fs'] as const)('on %s', (kind) => {
beforeAll(() => {
  stores = backends[kind]!;
});

describe('a kept guard view is never stale for the message it judges', () => {
  it('signing turned on just before a forged "lead" message arrives: it is withheld, though the team was open at the last delivery', async () => {
    const team = `open${++teamNo}`;
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice', cwd: dir.path });
    const alice = startAlice(team);
    try {
      const warm = await sendMessage({ root: stores, team, to: 'alice', text: 'warm-up while open' });
      await consumed(team, warm.entry.msg_id!);
      expect(alice.seen()).toContain('warm-up while open');

      await enableSigning({ root: stores, team });
      await stores.team.appendMessages(team, [{ to: 'alice', entry: makeInboxEntry({ from: 'team-lead', text: 'forged order', timestamp: new Date().toISOString(), msgId: 'forged-1' }) }]);
      await consumed(team, 'forged-1');
      expect(alice.seen()).not.toContain('forged order');
      expect(alice.lines.join('\n')).toMatch(/withheld a message from "team-lead": .*not signed/);
    } finally {
      await alice.stop();
    }
  });

  it('a member re-keyed just before a message signed with its revoked key arrives: it is withheld as replaced-key', async () => {
    const { team, alice } = await signedPairWarm('signed', 'warm-up, signed by bob');
    try {
      // Signed with bob's key as it is now, held back, and appended once the key is revoked.
      const config = await stores.team.readConfig(team);
      const [old] = await signOutgoing({ root: stores, team }, { config, settings: await stores.team.readSettings(team) }, 'bob', [{ to: 'alice', entry: makeInboxEntry({ from: 'bob', text: 'signed with the revoked key', timestamp: new Date().toISOString(), msgId: 'old-key-1' }) }]);
      await rekeyTeam({ root: stores, team, member: 'bob' });
      await stores.team.appendMessages(team, [old!]);
      await consumed(team, 'old-key-1');
      expect(alice.seen()).not.toContain('signed with the revoked key');
      expect(alice.lines.join('\n')).toMatch(/withheld a message from "bob": .*no longer holds \(re-keyed\) \(check replaced-key\)/);

      const after = await sendMessage({ root: stores, team, from: 'bob', to: 'alice', text: 'signed with the new key' });
      await consumed(team, after.entry.msg_id!);
      expect(alice.seen()).toContain('signed with the new key');
    } finally {
      await alice.stop();
    }
  });
});

describe('a kept guard view is never stale: the roster and the policy', () => {
  it('a member removed just before a message in its name arrives: judged as from a non-member (shown, marked unverified), not by its old identity', async () => {
    const { team, alice } = await signedPairWarm('removed', 'warm-up from bob, a member');
    try {
      await stores.team.removeMember(team, 'bob');
      await stores.team.appendMessages(team, [{ to: 'alice', entry: makeInboxEntry({ from: 'bob', text: 'unsigned, bob is gone', timestamp: new Date().toISOString(), msgId: 'gone-1' }) }]);
      await consumed(team, 'gone-1');
      // With bob's identity from before the removal it would be refused as unsigned.
      expect(alice.seen()).toMatch(/teammate_id=\\"bob\\"[^>]*verified=\\"false\\">\\nunsigned, bob is gone/);
    } finally {
      await alice.stop();
    }
  });

  // The policy binds what a member sends, checked by the send itself with its own reads — never
  // through the kept view; this keeps it so (a view used for a teammate's own sends would fail it).
  it('a policy change just before the lead asks alice to message bob: her SendMessage is refused by the new rule', async () => {
    const team = `policy${++teamNo}`;
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice', cwd: dir.path });
    await spawnMember({ root: stores, team, name: 'bob', cwd: dir.path });
    const deaf: Stores = { ...stores, team: observed(stores.team, true).store, close: async () => undefined };
    const model = functionModel((request): ModelResponse => {
      const last = JSON.stringify(request.messages.at(-1));
      if (last.includes('tell bob') && !last.includes('tool_result')) return { content: [{ type: 'tool_use', id: `call-${request.messages.length}`, name: 'SendMessage', input: { to: 'bob', message: 'hello from alice' } }], stopReason: 'tool_use' };
      return { content: [{ type: 'text', text: '' }], stopReason: 'end_turn' };
    });
    const controller = new AbortController();
    const running = runTeammate({ root: deaf, team, name: 'alice', model, signal: controller.signal, takesTasks: false, pollMs: 60_000, reportUnsentText: false });
    try {
      const warm = await sendMessage({ root: stores, team, to: 'alice', text: 'warm-up' });
      await consumed(team, warm.entry.msg_id!);

      await changePolicy({ root: stores, team }, [{ rule: 'message.alice', who: ['@lead'] }]);
      await sendMessage({ root: stores, team, to: 'alice', text: 'tell bob' });
      const result = await until(() => model.requests.map((r) => JSON.stringify(r.messages.at(-1))).find((m) => m.includes('tool_result')), 10_000, "the SendMessage's result");
      expect(result).toContain('alice may not message bob: the team policy lets it message @lead');
      expect(result).toContain('"isError":true');
      expect((await stores.team.readInbox(team, 'bob')).some((e) => e.text === 'hello from alice')).toBe(false);
    } finally {
      controller.abort();
      await running;
    }
  });
});

describe('presence after the request (a store whose reads are kept)', () => {
  // `working` goes out once the turn's first model request was made; a turn that makes none — it
  // was delivered only a lead-only message from someone else, withheld and consumed — must still
  // write it before its `idle`, never after: isActive ends false, presence idle.
  it('a turn without a model request still writes working before idle: isActive true then false', async () => {
    const team = `presence${++teamNo}`;
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice', cwd: dir.path });
    await spawnMember({ root: stores, team, name: 'bob', cwd: dir.path });
    const alice = startAlice(team);
    const updates = async () => (await stores.team.readEvents(team)).events.filter((e) => e.kind === 'member' && e.action === 'updated' && e.name === 'alice').length;
    try {
      await until(async () => (await stores.team.readClaims(team)).some((c) => c.member === 'alice' && c.state === 'idle'), 10_000, 'alice idle');
      const before = await updates();
      const forged = makeInboxEntry({ from: 'bob', text: JSON.stringify({ type: 'shutdown_request', requestId: 'r1', reason: 'not the lead' }), timestamp: new Date().toISOString(), msgId: 'forged-stop' });
      await stores.team.appendMessages(team, [{ to: 'alice', entry: forged }]);
      await consumed(team, 'forged-stop');
      await until(async () => (await updates()) >= before + 2, 5_000, 'both isActive writes');
      await until(async () => (await stores.team.readClaims(team)).some((c) => c.member === 'alice' && c.state === 'idle'), 5_000, 'alice idle again');
      expect((await stores.team.readConfig(team)).members.find((m) => m.name === 'alice')?.isActive).toBe(false);
      expect(alice.seen()).not.toContain('not the lead');
      expect(await updates()).toBe(before + 2);
    } finally {
      await alice.stop();
    }
  });
});

describe('TeamView', () => {
  it('reads once per stamp; a take after a change (no hint) reads again and sees it; a config hint reads in the background', async () => {
    const team = `view${++teamNo}`;
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice', cwd: dir.path });
    const { store, calls } = observed(stores.team, false);
    const view = new TeamView(store, team);
    let n = 0;
    // A take that hands out an entry (on files only those carry a stamp).
    const take = async () => {
      await stores.team.appendMessages(team, [{ to: 'alice', entry: makeInboxEntry({ from: 'team-lead', text: `m${++n}`, timestamp: new Date().toISOString(), msgId: `${team}-m${n}` }) }]);
      const { value } = await stores.team.takeUnread(team, 'alice', { reader: 'r', leaseMs: 60_000 });
      expect(value.entries).toHaveLength(1);
      expect(value.viewStamp).toBeTypeOf('string');
      return value.viewStamp;
    };

    const first = await view.at(await take());
    expect(first?.settings.policy).toBeUndefined();
    await view.at(await take());
    expect(calls.get('viewStamp')).toBe(1);
    expect(calls.get('readSettings')).toBe(1);

    await stores.team.updateSettings(team, { 'policy.createTasks': ['@lead'] });
    const changed = await view.at(await take());
    expect(changed?.settings.policy).toEqual({ createTasks: ['@lead'] });
    expect(calls.get('readSettings')).toBe(2);

    await stores.team.updateMember(team, 'alice', { isActive: true });
    view.onHint({ kind: 'config', team });
    view.onHint({ kind: 'config', team }); // coalesced with the read in flight: at most one more
    await until(() => (calls.get('readConfig') ?? 0) >= 3, 5_000, 'the background read');
    const kept = await view.at(await take());
    expect(kept?.config.members.find((m) => m.name === 'alice')?.isActive).toBe(true);
    // Settled: no read started for 50 ms (the coalesced one, if any, has run).
    await until(async () => {
      const n = calls.get('readConfig');
      await new Promise((r) => setTimeout(r, 50));
      return calls.get('readConfig') === n;
    }, 5_000, 'the background reads to settle');
    expect(calls.get('readConfig')).toBeLessThanOrEqual(4);
    const before = calls.get('readConfig');
    await view.at(await take());
    expect(calls.get('readConfig')).toBe(before);
    view.close();
  });

  it("an isActive write alone is the same view; a member's other field or the settings is not (member records: the re-key test above)", async () => {
    const team = `same${++teamNo}`;
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice', cwd: dir.path });
    await spawnMember({ root: stores, team, name: 'bob', cwd: dir.path });
    const { store, calls } = observed(stores.team, false);
    const view = new TeamView(store, team);
    let n = 0;
    const take = async () => {
      await stores.team.appendMessages(team, [{ to: 'alice', entry: makeInboxEntry({ from: 'team-lead', text: `m${++n}`, timestamp: new Date().toISOString(), msgId: `${team}-m${n}` }) }]);
      return (await stores.team.takeUnread(team, 'alice', { reader: 'r', leaseMs: 60_000 })).value.viewStamp;
    };
    await view.at(await take());
    const reads = () => calls.get('readConfig') ?? 0;
    expect(reads()).toBe(1);
    await stores.team.updateMember(team, 'bob', { isActive: true });
    await stores.team.updateMember(team, 'alice', { isActive: true });
    await view.at(await take());
    expect(reads(), 'presence moves no view').toBe(1);
    await stores.team.updateMember(team, 'bob', { model: 'other-model' });
    expect((await view.at(await take()))?.config.members.find((m) => m.name === 'bob')?.model).toBe('other-model');
    expect(reads()).toBe(2);
    await stores.team.updateSettings(team, { 'policy.createTasks': ['@lead'] });
    expect((await view.at(await take()))?.settings.policy).toEqual({ createTasks: ['@lead'] });
    expect(reads()).toBe(3);
    view.close();
  });

  it('keeps nothing on a store whose takes carry no view stamp: every step reads as before', async () => {
    const bare = new Proxy(stores.team, { get: (t, k, r) => (k === 'takesCarryViewStamps' ? undefined : Reflect.get(t, k, r)) });
    expect(TeamView.supports(stores.team)).toBe(true);
    expect(TeamView.supports(bare)).toBe(false);
    expect(await new TeamView(bare, 'any').at('some-stamp')).toBeUndefined();
  });
});
});
