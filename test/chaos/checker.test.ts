/**
 * The chaos checker on hand-made histories: each invariant's breach is caught, a clean history
 * and indeterminate outcomes (info, a process killed mid-op) are not reported, and (fast-check)
 * random histories of a correct queue never show a lost or duplicated message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, INVARIANTS, type Invariant } from './checker.js';
import type { Op, OpName, OpType, OpValue } from './history.js';

let clock = 1_000;
const op = (process: string, type: OpType, f: OpName, value: OpValue = {}, error?: string): Op => ({ process, type, f, time: (clock += 10), value, ...(error ? { error } : {}) });
/** An op that completed ok, as invoke + ok. */
const done = (process: string, f: OpName, value: OpValue): Op[] => [op(process, 'invoke', f, value), op(process, 'ok', f, value)];
const fault = (fault: string, target: string): Op => op('nemesis', 'info', 'nemesis', { fault, target });

function only(history: Op[], invariant: Invariant): void {
  const { violations } = check(history);
  for (const name of INVARIANTS) expect(violations[name].length > 0, `${name}: ${JSON.stringify(violations[name].map((v) => v.message))}`).toBe(name === invariant);
}

const clean = (): Op[] => [
  ...done('c1', 'read-claim', { member: 'alice' }),
  ...done('c1', 'beat', { member: 'alice' }),
  ...done('s1', 'send', { msgId: 'm1', to: 'alice' }),
  ...done('s1', 'send', { msgId: 'm2', to: 'alice' }),
  ...done('c1', 'take', { member: 'alice', msgIds: ['m1'] }),
  ...done('c1', 'ack', { member: 'alice', msgIds: ['m1'] }),
  ...done('w1', 'claim', { task: '1', owner: 'bob' }),
  ...done('w1', 'write', { task: '1', owner: 'bob' }),
  ...done('w1', 'complete', { task: '1', owner: 'bob' }),
  ...done('c1', 'beat', { member: 'alice' }),
  ...done('sw', 'sweep', { dead: [] }),
  op('final', 'ok', 'final', { member: 'alice', unread: ['m2'] }),
];

describe('chaos checker', () => {
  it('a clean history has no violation', () => {
    const result = check(clean());
    for (const name of INVARIANTS) expect(result.violations[name]).toEqual([]);
    expect(result.counts['send:ok']).toBe(2);
  });

  it('lost: an acknowledged send never handed out nor left unread', () => {
    only([...clean(), ...done('s1', 'send', { msgId: 'm3', to: 'alice' })], 'lost');
  });

  it('lost: a send whose outcome is unknown (info, or killed mid-call) is not reported', () => {
    const h = [...clean(), op('s1', 'invoke', 'send', { msgId: 'm4', to: 'alice' }), op('s1', 'info', 'send', {}, 'STORE_UNAVAILABLE'), op('s2', 'invoke', 'send', { msgId: 'm5', to: 'alice' })];
    for (const name of INVARIANTS) expect(check(h).violations[name]).toEqual([]);
  });

  it('duplicate: the same msg_id handed to a member twice unmarked', () => {
    only([...clean(), ...done('c2', 'take', { member: 'alice', msgIds: ['m1'] })], 'duplicate');
  });

  it('duplicate: a redelivery marked as such is allowed', () => {
    const h = [...clean(), ...done('c2', 'take', { member: 'alice', msgIds: ['m1'], redelivered: ['m1'] })];
    expect(check(h).violations.duplicate).toEqual([]);
  });

  it('stale-write: a write accepted from an owner after another member claimed the task', () => {
    only([...clean(), ...done('w1', 'claim', { task: '2', owner: 'bob' }), ...done('w2', 'claim', { task: '2', owner: 'carol' }), ...done('w1', 'write', { task: '2', owner: 'bob' })], 'stale-write');
  });

  it('stale-write: a write accepted from a process after a new process of the same member claimed the task', () => {
    only([...clean(), ...done('w1', 'claim', { task: '5', owner: 'bob' }), ...done('w1b', 'claim', { task: '5', owner: 'bob' }), ...done('w1', 'write', { task: '5', owner: 'bob' })], 'stale-write');
  });

  it('stale-write: a completion accepted after a sweep took the task back', () => {
    only([...clean(), ...done('w1', 'claim', { task: '3', owner: 'bob' }), ...done('sw', 'sweep', { dead: [{ member: 'bob', tasks: ['3'] }] }), ...done('w1', 'complete', { task: '3', owner: 'bob' })].filter((o) => o.f !== 'beat'), 'stale-write');
  });

  it('stale-write: a refused stale write (TASK_FENCED), or one after the owner claimed again, is fine', () => {
    const h = [
      ...clean(),
      ...done('w1', 'claim', { task: '4', owner: 'bob' }),
      ...done('w2', 'claim', { task: '4', owner: 'carol' }),
      op('w1', 'invoke', 'write', { task: '4', owner: 'bob' }),
      op('w1', 'fail', 'write', {}, 'TASK_FENCED'),
      ...done('sw', 'sweep', { dead: [{ member: 'carol', tasks: ['4'] }] }),
      ...done('w1', 'claim', { task: '4', owner: 'bob' }),
      ...done('w1', 'write', { task: '4', owner: 'bob' }),
    ];
    expect(check(h).violations['stale-write']).toEqual([]);
  });

  it('two-readers: a take accepted from a reader whose claim was taken over', () => {
    only([...clean(), ...done('c2', 'read-claim', { member: 'alice' }), ...done('c1', 'take', { member: 'alice', msgIds: [] })], 'two-readers');
  });

  it('two-readers: the old reader refused after the takeover is fine', () => {
    const h = [...clean(), ...done('c2', 'read-claim', { member: 'alice' }), op('c1', 'invoke', 'take', { member: 'alice' }), op('c1', 'fail', 'take', {}, 'TEAMMATE_RUNNING')];
    expect(check(h).violations['two-readers']).toEqual([]);
  });

  it('dead-while-beating: a member declared dead while its process ran and its beats landed', () => {
    only([...clean(), ...done('sw', 'sweep', { dead: [{ member: 'alice', tasks: [] }] })], 'dead-while-beating');
  });

  it('dead-while-beating: a member stopped by the nemesis may be declared dead', () => {
    const h = [...clean(), fault('stop', 'c1'), ...done('sw', 'sweep', { dead: [{ member: 'alice', tasks: [] }] })];
    expect(check(h).violations['dead-while-beating']).toEqual([]);
  });

  it('dead-while-beating: a stall of the store excuses nothing (the member ran and its beats had landed)', () => {
    only([...clean(), fault('stop-redis', 'redis'), fault('cont-redis', 'redis'), ...done('sw', 'sweep', { dead: [{ member: 'alice', tasks: [] }] })], 'dead-while-beating');
  });

  it('dead-while-beating: a member killed (or ended) after its last beat may be declared dead', () => {
    for (const f of ['kill', 'end']) {
      const h = [...clean(), fault(f, 'c1'), ...done('sw', 'sweep', { dead: [{ member: 'alice', tasks: [] }] })];
      expect(check(h).violations['dead-while-beating'], f).toEqual([]);
    }
  });

  it('dead-while-beating: a stop that began only after the sweep completed does not excuse it', () => {
    only([...clean(), ...done('sw', 'sweep', { dead: [{ member: 'alice', tasks: [] }] }), fault('stop', 'c1')], 'dead-while-beating');
  });

  it('dead-while-beating: a stop of another process of the member does not excuse the one still beating', () => {
    only([...clean(), ...done('c2', 'beat', { member: 'alice' }), fault('stop', 'c2'), ...done('sw', 'sweep', { dead: [{ member: 'alice', tasks: [] }] })], 'dead-while-beating');
  });

  it('dead-while-beating: beats that only landed once the sweep had begun, or that were refused, do not count', () => {
    const sweepInv = op('sw', 'invoke', 'sweep', {});
    const h = [
      ...done('c3', 'read-claim', { member: 'bob' }),
      op('c3', 'invoke', 'beat', { member: 'bob' }),
      op('c3', 'fail', 'beat', {}, 'TEAMMATE_RUNNING'),
      sweepInv,
      ...done('c3', 'beat', { member: 'bob' }),
      op('sw', 'ok', 'sweep', { dead: [{ member: 'bob', tasks: [] }] }),
    ];
    expect(check(h).violations['dead-while-beating']).toEqual([]);
  });

  it('counts operations and faults', () => {
    const result = check([...clean(), fault('kill', 'c1'), fault('stop-redis', 'redis')]);
    expect(result.faults).toEqual({ kill: 1, 'stop-redis': 1 });
    expect(result.counts['take:ok']).toBe(1);
  });

  it('property: histories of a correct queue (random sends, takes, kills) never show lost or duplicate', () => {
    const step = fc.oneof(fc.constant('send' as const), fc.constant('take' as const), fc.constant('kill' as const), fc.constant('crash-send' as const));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        clock = 1_000;
        const h: Op[] = [];
        const unread: string[] = [];
        let n = 0;
        let consumer = 0;
        for (const s of steps) {
          if (s === 'send') {
            const id = `m${n++}`;
            h.push(...done('s', 'send', { msgId: id, to: 'alice' }));
            unread.push(id);
          } else if (s === 'crash-send') {
            h.push(op('s', 'invoke', 'send', { msgId: `x${n++}`, to: 'alice' }), op('s', 'info', 'send', {}, 'STORE_UNAVAILABLE'));
          } else if (s === 'take') {
            h.push(...done(`c${consumer}`, 'take', { member: 'alice', msgIds: unread.splice(0, 2) }));
          } else {
            h.push(fault('kill', `c${consumer++}`));
          }
        }
        h.push(op('final', 'ok', 'final', { member: 'alice', unread: [...unread] }));
        const v = check(h).violations;
        return v.lost.length === 0 && v.duplicate.length === 0;
      }),
    );
  });
});
