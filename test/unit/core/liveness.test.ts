/** Liveness timings from $MAILROOM_BEAT_MS (src/core/members/liveness.ts) and the told-once rule of HeldClaims. */
import { describe, expect, it } from 'vitest';
import { livenessTiming } from '../../../src/core/members/liveness.js';
import { HeldClaims } from '../../../src/core/tasks/fencing.js';
import { fenceRefusal, issueFence } from '../../../src/domain/task-fence.js';
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
    expect(issueFence(t)).toBe(1);
    expect(issueFence(t)).toBe(2);
    expect(fenceRefusal('t', t, 'alice', 2)).toBeUndefined();
    expect(fenceRefusal('t', t, 'alice', 1)?.code).toBe('TASK_FENCED');
    expect(fenceRefusal('t', t, 'bob', 2)?.code).toBe('TASK_FENCED');
    expect(fenceRefusal('t', { ...t, owner: undefined }, 'alice', 2)?.code).toBe('TASK_FENCED');
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
