/**
 * Issue 24: judging a batch of delivered messages reads what the machine trusts in one step. What
 * the lead pin decides — the member records of a pinned (signed) team, the team key of an earlier
 * release otherwise — is read as soon as the pin is known, beside the config and settings, not after
 * them (on Redis one round trip before a woken teammate's model request instead of two); and the
 * guard reads the member's memory of what it obeyed (replay checks) beside the trust. The store
 * is the real filesystem store, wrapped only to record when its reads start and end, or to make one
 * of them fail.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { ControlGuard } from '../../../src/core/teams/signing.js';
import { enableSigning } from '../../../src/core/trust/identity.js';
import { loadTrust } from '../../../src/core/trust/trust.js';
import { MailroomError } from '../../../src/errors.js';
import type { HostStore } from '../../../src/store/host-store.js';
import { openFsStores } from '../../../src/store/open.js';
import type { Stores } from '../../../src/store/selection.js';
import type { TeamStore } from '../../../src/store/team-store.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const READS = ['readConfig', 'readSettings', 'readLeadPin', 'readMemberRecords', 'readTeamKey', 'readObeyed', 'readSeen'] as const;
type Read = (typeof READS)[number];
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

/**
 * `real` whose stores log each trust read (a step counter, not a clock), and run `around` instead of
 * a read when given. The config and settings reads are held 20 ms (a store farther away than the
 * host's own files), so "started before they returned" does not depend on the scheduler.
 */
function recorded(around: Partial<Record<Read, () => Promise<never>>> = {}): { root: Stores; calls: Call[] } {
  const calls: Call[] = [];
  let step = 0;
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key, receiver) {
        const value: unknown = Reflect.get(t, key, receiver);
        if (!READS.includes(key as Read) || typeof value !== 'function') return value;
        const read = key as Read;
        return async (...args: unknown[]) => {
          const call: Call = { read, started: step++ };
          calls.push(call);
          try {
            if (read === 'readConfig' || read === 'readSettings') await later(20);
            return await (around[read] ?? (() => (value as (...a: unknown[]) => Promise<unknown>).apply(t, args)))();
          } finally {
            call.ended = step++;
          }
        };
      },
    });
  return { root: { ...real, team: wrap<TeamStore>(real.team), host: wrap<HostStore>(real.host) }, calls };
}

const only = (calls: Call[], read: Read): Call => {
  const found = calls.filter((c) => c.read === read);
  expect(found, `${read} is read once`).toHaveLength(1);
  return found[0]!;
};
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failing = (code: 'FILE_CORRUPT' | 'KEY_PERMISSIONS', what: string, ms = 0) => async (): Promise<never> => {
  await later(ms);
  throw new MailroomError(code, what);
};

describe('loadTrust reads in one step', () => {
  it('in a signed team, starts the member records read before the config and settings reads have returned', async () => {
    await enableSigning({ root: real, team });
    const { root, calls } = recorded();
    const trust = await loadTrust({ root, team });
    expect(trust.signed).toBe(true);
    expect(trust.records.map((r) => r.name)).toEqual((await real.team.readMemberRecords(team)).map((r) => r.name));
    const records = only(calls, 'readMemberRecords');
    expect(records.started).toBeLessThan(only(calls, 'readConfig').ended!);
    expect(records.started).toBeLessThan(only(calls, 'readSettings').ended!);
    expect(calls.some((c) => c.read === 'readTeamKey')).toBe(false);
  });

  it('in an open team, starts the team key read before the config and settings reads have returned, and reads no member records', async () => {
    const { root, calls } = recorded();
    const trust = await loadTrust({ root, team });
    expect(trust.signed).toBe(false);
    const key = only(calls, 'readTeamKey');
    expect(key.started).toBeLessThan(only(calls, 'readConfig').ended!);
    expect(key.started).toBeLessThan(only(calls, 'readSettings').ended!);
    expect(calls.some((c) => c.read === 'readMemberRecords')).toBe(false);
  });

  it('a signed team whose member records cannot be read is refused with that error, as before', async () => {
    await enableSigning({ root: real, team });
    const { root } = recorded({ readMemberRecords: failing('FILE_CORRUPT', 'members.json is not valid JSON') });
    await expect(loadTrust({ root, team })).rejects.toMatchObject({ code: 'FILE_CORRUPT', message: 'members.json is not valid JSON' });
  });

  it("an earlier release's team key this machine cannot read counts as none (the team is open), as before", async () => {
    const { root } = recorded({ readTeamKey: failing('KEY_PERMISSIONS', 'team key is readable by others') });
    expect((await loadTrust({ root, team })).signed).toBe(false);
  });

  it("reports the config's error when the early read fails too, and leaves no rejection unhandled", async () => {
    await enableSigning({ root: real, team });
    const { root } = recorded({
      readConfig: failing('FILE_CORRUPT', 'config.json is not valid JSON'),
      readMemberRecords: failing('FILE_CORRUPT', 'members.json is not valid JSON'),
    });
    await expect(loadTrust({ root, team })).rejects.toMatchObject({ message: 'config.json is not valid JSON' });
    await later(30); // an unhandled rejection of the early read would be reported by vitest as an error of this file
  });
});

describe("the guard reads the member's replay memory beside the trust", () => {
  const entry = { from: 'team-lead', text: 'hello', timestamp: new Date().toISOString(), read: false };

  it('in a signed team, starts the obeyed and seen reads before the config and settings reads have returned', async () => {
    await enableSigning({ root: real, team });
    const { root, calls } = recorded();
    const judged = await new ControlGuard({ root, team }, 'alice').judge([entry]);
    expect(judged.refused.map((r) => r.check)).toEqual(['unsigned']); // signed team, the lead's name on an unsigned message
    for (const read of ['readObeyed', 'readSeen'] as const) {
      expect(only(calls, read).started).toBeLessThan(only(calls, 'readConfig').ended!);
      expect(only(calls, read).started).toBeLessThan(only(calls, 'readSettings').ended!);
    }
  });

  it('in an open team, an unreadable replay memory refuses nothing and throws nothing (it is not needed)', async () => {
    const { root } = recorded({ readSeen: failing('FILE_CORRUPT', 'seen.json is not valid JSON') });
    const judged = await new ControlGuard({ root, team }, 'alice').judge([entry]);
    expect(judged.refused).toEqual([]);
    expect(judged.unverified.size).toBe(0);
  });

  it('in a signed team, an unreadable replay memory is the error of the judgement, as before', async () => {
    await enableSigning({ root: real, team });
    const { root } = recorded({ readSeen: failing('FILE_CORRUPT', 'seen.json is not valid JSON') });
    await expect(new ControlGuard({ root, team }, 'alice').judge([entry])).rejects.toMatchObject({ message: 'seen.json is not valid JSON' });
  });
});
