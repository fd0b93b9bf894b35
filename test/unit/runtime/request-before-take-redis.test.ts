/**
 * On Redis too, a woken teammate's model request goes out before its take commits (issue 24:
 * delivery latency): the append publishes, on the recipient's own channel, what its take would
 * hand out (src/store/redis/inbox-looks.ts, TeamStore.hintedLook), and the teammate makes its
 * request for that look, then takes (src/runtime/turn.ts `commitLooked`, the rule files use).
 * These tests try to break it:
 * - the take hands out more than the look showed (a send landed in between): cancelled, dropped,
 *   the next request carries both;
 * - the team's view moved between the append and the take: cancelled, made again;
 * - a look forged by someone who can publish (a text never sent): the request for it is cancelled
 *   and nothing its answer says acts; a real send after it is answered once;
 * - an entry too large for a look, and a teammate whose look channel is gone: the take commits
 *   first, as before, and the message is delivered.
 * The order (look → model call → take, or take → call) is read from the store's calls, proxied.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { makeInboxEntry } from '../../../src/protocol/inbox.js';
import { createScriptedModel, type ScriptedTurn } from '../../../src/runtime/models/scripted.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { openStores } from '../../../src/store/open.js';
import { hintChannel, inboxLookChannel } from '../../../src/store/redis/keys.js';
import type { Stores } from '../../../src/store/selection.js';
import type { TeamStore } from '../../../src/store/team-store.js';
import { startRedis, type RedisServer } from '../../helpers/redis-server.js';
import { lastUserText, until } from '../../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let redis: RedisServer;
let dir: TempDir;
let stores: Stores;
let teamNo = 0;
let team: string;
beforeAll(async () => {
  redis = await startRedis();
  dir = await makeTempDir('mailroom-rbt-redis-');
  stores = await openStores({ kind: 'redis', url: redis.url, hostRoot: dir.path });
});
afterAll(async () => {
  await stores?.close();
  await redis?.stop();
  await dir?.cleanup();
});
beforeEach(async () => {
  team = `rbt${++teamNo}`;
  await createTeam({ root: stores, team });
  await spawnMember({ root: stores, team, name: 'alice', cwd: dir.path });
  await spawnMember({ root: stores, team, name: 'bob', cwd: dir.path });
});

const inbox = async (member: string) => stores.team.readInbox(team, member);

interface Options {
  /** Runs once, inside alice's next take after the warm-up, before the take itself. */
  beforeTake?: () => Promise<void>;
  /** Alice's store has no look channel (a user granted before it existed, a lost subscription). */
  noLooks?: boolean;
}

/**
 * Runs alice on a proxied store recording `look` (a hinted look handed out), `take` and `call`
 * (her model asked) in order; a first message warms her up (the team judged open), so the next
 * send to the idle teammate may take the looked-at path. `order()` is what came after the warm-up.
 */
async function runAlice(turns: ScriptedTurn[], options: Options = {}) {
  const order: string[] = [];
  let warm = false;
  let beforeTake = options.beforeTake;
  const team$ = new Proxy(stores.team, {
    get(target, key, receiver) {
      if (options.noLooks && (key === 'watchInboxLooks' || key === 'hintedLook')) return undefined;
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      const f = value as (...a: unknown[]) => unknown;
      if (key === 'hintedLook') {
        return (...args: unknown[]) => {
          const look = f.apply(target, args);
          if (look !== undefined && warm) order.push('look');
          return look;
        };
      }
      if (key === 'takeUnread') {
        return async (...args: unknown[]) => {
          if (warm && args[1] === 'alice') {
            order.push('take');
            const hook = beforeTake;
            beforeTake = undefined;
            await hook?.();
          }
          return f.apply(target, args);
        };
      }
      return (...args: unknown[]) => f.apply(target, args);
    },
  }) as TeamStore;
  const own: Stores = { ...stores, team: team$, close: async () => undefined };
  const log: string[] = [];
  let state = '';
  const model = createScriptedModel({ turns: [{ text: 'warmed up' }, ...turns], onCall: () => void (warm && order.push('call')) });
  const controller = new AbortController();
  const running = runTeammate({ root: own, team, name: 'alice', model, signal: controller.signal, takesTasks: false, pollMs: 60_000, log: (line) => log.push(line), onState: (s) => (state = s) });
  await until(() => state === 'idle', 10_000, 'alice idle');
  await sendMessage({ root: stores, team, to: 'alice', text: 'warm up' });
  await until(async () => model.requests.length === 1 && state === 'idle' && (await inbox('alice')).every((e) => e.read), 10_000, 'the warm-up delivered');
  await new Promise((r) => setTimeout(r, 200)); // its check after the turn done: the next send wakes it by the hint
  warm = true;
  return { model, log, order: () => order, state: () => state, stop: async () => (controller.abort(), await running) };
}

const leaks = async () => (await inbox('team-lead')).filter((e) => e.text.includes('LEAK'));

describe('a request made before its take commits (Redis: the look comes with the append)', () => {
  it('acts on the answer once the take handed out exactly what the request carried', async () => {
    const alice = await runAlice([{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'answer to ping' } }] }, { text: '' }]);
    try {
      await sendMessage({ root: stores, team, to: 'alice', text: 'ping' });
      await until(async () => (await inbox('team-lead')).some((e) => e.text === 'answer to ping'), 10_000, 'the answer sent');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'ping read');
      expect(alice.order().slice(0, 3)).toEqual(['look', 'call', 'take']); // the request before the take
      expect(lastUserText(alice.model.requests[1]!)).toContain('ping');
      expect(alice.model.requests[1]!.signal.aborted).toBe(false);
    } finally {
      await alice.stop();
    }
  });

  it('a take that hands out more than the look showed: the request is cancelled, its answer dropped, the next carries both', async () => {
    const alice = await runAlice([{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: answer to a request the take did not match' } }] }, { text: 'both seen' }], {
      beforeTake: async () => void (await sendMessage({ root: stores, team, to: 'alice', text: 'second, between the look and the take' })),
    });
    try {
      await sendMessage({ root: stores, team, to: 'alice', text: 'ping' });
      await until(() => alice.model.requests.length >= 3 && alice.state() === 'idle', 10_000, 'the next request');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'both read');
      expect(alice.order().slice(0, 3)).toEqual(['look', 'call', 'take']);
      const first = lastUserText(alice.model.requests[1]!);
      expect(first).toContain('ping');
      expect(first).not.toContain('second');
      const next = lastUserText(alice.model.requests[2]!);
      expect(next).toContain('ping');
      expect(next).toContain('second, between the look and the take');
      expect(JSON.stringify(alice.model.requests[2]!.messages)).not.toContain('LEAK');
      expect(await leaks()).toEqual([]);
      expect(alice.model.requests[1]!.signal.aborted).toBe(true);
      expect(alice.model.requests).toHaveLength(3);
    } finally {
      await alice.stop();
    }
  });

  it('the team changed between the append and the take (another view): the request is cancelled and made again', async () => {
    const alice = await runAlice([{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: answer judged under an older view' } }] }, { text: 'seen' }], {
      beforeTake: async () => void (await stores.team.updateMember(team, 'bob', { prompt: 'changed between the append and the take' })),
    });
    try {
      await sendMessage({ root: stores, team, to: 'alice', text: 'ping' });
      await until(() => alice.model.requests.length >= 3 && alice.state() === 'idle', 10_000, 'the request made again');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'ping read');
      expect(alice.order().slice(0, 3)).toEqual(['look', 'call', 'take']);
      expect(alice.model.requests[1]!.signal.aborted).toBe(true);
      expect(lastUserText(alice.model.requests[2]!)).toContain('ping');
      expect(JSON.stringify(alice.model.requests[2]!.messages)).not.toContain('LEAK');
      expect(await leaks()).toEqual([]);
      expect(alice.model.requests).toHaveLength(3);
    } finally {
      await alice.stop();
    }
  });

  it('a forged look (a text never sent, published by someone with store access): its answer never acts; a real send is answered once', async () => {
    const alice = await runAlice([
      { toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: answer to a forged look' } }] },
      { toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'answer to ping' } }] },
      { text: '' },
    ]);
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const stamp = await stores.team.viewStamp!(team);
      const forged = makeInboxEntry({ from: 'team-lead', text: 'FORGED order', timestamp: new Date().toISOString(), msgId: 'forged-1' });
      await raw.publish(inboxLookChannel(team, 'alice'), `${stamp}\n${JSON.stringify(forged)}`);
      await raw.publish(hintChannel(team), 'inbox alice');
      await until(() => alice.model.requests.length >= 2, 10_000, 'the request for the forged look');
      expect(lastUserText(alice.model.requests[1]!)).toContain('FORGED order');
      await until(() => alice.model.requests[1]!.signal.aborted && alice.state() === 'idle', 10_000, 'the forged request cancelled');
      await sendMessage({ root: stores, team, to: 'alice', text: 'ping' });
      await until(async () => (await inbox('team-lead')).some((e) => e.text === 'answer to ping'), 10_000, 'the answer to ping');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'ping read');
      expect(alice.order().slice(0, 3)).toEqual(['look', 'call', 'take']);
      expect(JSON.stringify(alice.model.requests[2]!.messages)).not.toContain('FORGED');
      expect(await leaks()).toEqual([]);
      expect((await inbox('team-lead')).filter((e) => e.text === 'answer to ping')).toHaveLength(1);
      expect((await inbox('alice')).some((e) => e.text.includes('FORGED'))).toBe(false);
    } finally {
      await raw.close();
      await alice.stop();
    }
  });

  it('an entry too large for a look: the take commits first, as before, and it is delivered', async () => {
    const alice = await runAlice([{ text: 'read it' }]);
    try {
      const big = `big ${'x'.repeat(70 * 1024)}`;
      await sendMessage({ root: stores, team, to: 'alice', text: big });
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'the big message read');
      expect(alice.order().slice(0, 2)).toEqual(['take', 'call']);
      expect(lastUserText(alice.model.requests[1]!)).toContain(big);
    } finally {
      await alice.stop();
    }
  });

  it('no look channel (refused, or the subscription lost): the take commits first and the message is delivered once', async () => {
    const alice = await runAlice([{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'answer to ping' } }] }, { text: '' }], { noLooks: true });
    try {
      await sendMessage({ root: stores, team, to: 'alice', text: 'ping' });
      await until(async () => (await inbox('team-lead')).some((e) => e.text === 'answer to ping'), 10_000, 'the answer sent');
      expect(alice.order().slice(0, 2)).toEqual(['take', 'call']);
      expect((await inbox('team-lead')).filter((e) => e.text === 'answer to ping')).toHaveLength(1);
    } finally {
      await alice.stop();
    }
  });
});
