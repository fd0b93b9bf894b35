/** Liveness timings from $MAILROOM_BEAT_MS (src/core/members/liveness.ts) and the told-once rule of HeldClaims. */
import { describe, expect, it } from 'vitest';
import { livenessTiming } from '../../../src/core/members/liveness.js';
import { HeldClaims } from '../../../src/core/tasks/fencing.js';
import fc from 'fast-check';
import { fenceRefusal, issueFence, nextFence } from '../../../src/domain/task-fence.js';
import type { Task } from '../../../src/protocol/task.js';

describe('livenessTiming', () => {
  it('defaults to 5 s beats, 15 s ttl and grace, a 2-minute stall bound; scales all from $MAILROOM_BEAT_MS', () => {
    expect(livenessTiming({})).toEqual({ beatMs: 5_000, ttlMs: 15_000, graceMs: 15_000, sweepMs: 5_000, stallBoundMs: 120_000 });
    expect(livenessTiming({ MAILROOM_BEAT_MS: '200' })).toEqual({ beatMs: 200, ttlMs: 600, graceMs: 600, sweepMs: 200, stallBoundMs: 4_800 });
  });
  it('refuses a value that is not a whole number of ms ≥ 50, naming the variable', () => {
    for (const bad of ['10', 'abc', '1.5', '-100']) expect(() => livenessTiming({ MAILROOM_BEAT_MS: bad })).toThrow(/MAILROOM_BEAT_MS/);
  });
});

describe('fencing rules', () => {
  const task = (): Task => ({ id: '1', subject: 's', description: '', status: 'in_progress', owner: 'alice', blocks: [], blockedBy: [] });
  it('issues growing tokens; only the owner with the current token passes', () => {
    const t = task();
    const now = 1_800_000_000_000;
    expect(issueFence(t, now)).toBe(now); // the store's clock, in ms
    expect(issueFence(t, now)).toBe(now + 1); // a second claim in the same ms still grows
    expect(issueFence(t, now - 60_000)).toBe(now + 2); // a clock that went back never lowers it
    expect(fenceRefusal('t', t, 'alice', now + 2)).toBeUndefined();
    expect(fenceRefusal('t', t, 'alice', now + 1)?.code).toBe('TASK_FENCED');
    expect(fenceRefusal('t', t, 'bob', now + 2)?.code).toBe('TASK_FENCED');
    expect(fenceRefusal('t', { ...t, owner: undefined }, 'alice', now + 2)?.code).toBe('TASK_FENCED');
  });
  it('nextFence: above the previous token and at least the clock, whatever the store lost', () => {
    fc.assert(
      fc.property(fc.nat(2 ** 45), fc.nat(2 ** 45), fc.nat(2 ** 45), (previous, issuedAt, later) => {
        const lost = nextFence(previous, issuedAt); // a token issued at `issuedAt` that the store then lost
        expect(lost).toBeGreaterThan(previous);
        // Any claim at an instant more than (lost - issuedAt) ms later — how far same-ms claims ran ahead — is above it.
        const restartedAt = Math.max(issuedAt, lost) + 1 + later;
        expect(nextFence(previous, restartedAt)).toBeGreaterThan(lost);
      }),
    );
  });
  it('HeldClaims tells a lost claim once', () => {
    const held = new HeldClaims();
    held.hold('1', 3);
    expect(held.tokenOf('1')).toBe(3);
    expect(held.firstLoss('1', 3)).toBe(true);
    expect(held.firstLoss('1', 3)).toBe(false);
    expect(held.firstLoss('1', 4)).toBe(true);
  });
});
