/**
 * Issue 24: a send reads the team's config and settings at once — on Redis one round trip before
 * the append instead of two — and a send given both (the CLI's `withConfig`) reads neither again.
 * The store is the real filesystem store, wrapped only to record when its reads start and end, or
 * to make one of them fail.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage, broadcast } from '../../../src/core/messages/send.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { withConfig } from '../../../src/core/teams/known-config.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { MailroomError } from '../../../src/errors.js';
import { openFsStores } from '../../../src/store/open.js';
import type { Stores } from '../../../src/store/selection.js';
import type { TeamStore } from '../../../src/store/team-store.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

type Read = 'readConfig' | 'readSettings';
interface Call {
  read: Read;
  started: number;
  ended?: number;
}

let dir: TempDir;
let real: Stores;
const team = 'demo';
beforeEach(async () => {
  dir = await makeTempDir();
  real = openFsStores(dir.path);
  await createTeam({ root: real, team });
  await spawnMember({ root: real, team, name: 'alice', cwd: dir.path });
});
afterEach(async () => dir.cleanup());

/** `real` whose team store logs each config and settings read (a step counter, not a clock), and runs `around` instead of a read when given. */
function recorded(around: Partial<Record<Read, () => Promise<never>>> = {}): { root: Stores; calls: Call[] } {
  const calls: Call[] = [];
  let step = 0;
  const team = new Proxy(real.team, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if ((key !== 'readConfig' && key !== 'readSettings') || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const call: Call = { read: key, started: step++ };
        calls.push(call);
        try {
          return await (around[key] ?? (() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)))();
        } finally {
          call.ended = step++;
        }
      };
    },
  }) as TeamStore;
  return { root: { ...real, team }, calls };
}

const corrupt = (file: string) => new MailroomError('FILE_CORRUPT', `${file} is not valid JSON`);
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a send reads the config and the settings together', () => {
  it('runs the config read and the settings read at the same time (one started before the other returned), each once', async () => {
    for (const send of [
      (root: Stores) => sendMessage({ root, team, to: 'alice', text: 'hi' }),
      (root: Stores) => broadcast({ root, team, text: 'hi all' }),
    ]) {
      const { root, calls } = recorded();
      await send(root);
      expect(calls.map((c) => c.read).sort()).toEqual(['readConfig', 'readSettings']);
      const [first, second] = calls;
      expect(second!.started).toBeLessThan(first!.ended!);
    }
  });

  it('reads neither again when the caller passes both (the CLI reads them with withConfig)', async () => {
    const { root, calls } = recorded();
    const known = await withConfig({ root, team });
    expect(calls.map((c) => c.read).sort()).toEqual(['readConfig', 'readSettings']);
    expect(calls[1]!.started).toBeLessThan(calls[0]!.ended!);
    calls.length = 0;
    await sendMessage({ ...known, to: 'alice', text: 'hi' });
    await broadcast({ ...known, text: 'hi all' });
    expect(calls).toEqual([]);
  });

  it("reports the config's error when both reads fail, even when the settings read fails first", async () => {
    const { root } = recorded({
      readConfig: async () => (await later(30), Promise.reject(corrupt('config.json'))),
      readSettings: async () => Promise.reject(corrupt('mailroom-settings.json')),
    });
    for (const attempt of [() => sendMessage({ root, team, to: 'alice', text: 'hi' }), () => withConfig({ root, team })]) {
      const err = await attempt().then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(MailroomError);
      expect((err as MailroomError).message).toBe('config.json is not valid JSON');
    }
    expect(await real.team.readInbox(team, 'alice')).toEqual([]);
  });

  it('refuses the send with the settings error, appending nothing, when only the settings are unreadable', async () => {
    const { root } = recorded({ readSettings: async () => Promise.reject(corrupt('mailroom-settings.json')) });
    await expect(sendMessage({ root, team, to: 'alice', text: 'hi' })).rejects.toThrow('mailroom-settings.json is not valid JSON');
    expect(await real.team.readInbox(team, 'alice')).toEqual([]);
  });
});
