/**
 * Patches between page states (src/dashboard/patch.ts): applying the diff of two states to the
 * first gives the second, only what changed travels, unchanged items stay the same objects, and a
 * patch for another version is refused (the page then reconnects for a new snapshot).
 */
import { describe, expect, it } from 'vitest';
import { applyPatch, diffStates } from '../../src/dashboard/patch.js';
import type { WireMessage, WireState } from '../../src/dashboard/wire.js';

const msg = (i: number, delivery = 'queued'): WireMessage => ({ key: `k${i}`, from: 'alice', to: 'bob', timestamp: `2026-03-01T10:00:0${i}.000Z`, line: `m${i}`, text: `m${i}`, status: 'unread', delivery });
const base = (): WireState => ({
  version: 1, team: 'demo', exists: true, ended: false, lead: 'team-lead', actor: 'team-lead', store: 's', host: 'h',
  members: [{ name: 'alice', isLead: false, inRoster: true, state: 'idle', stateReason: 'r', capabilities: [], unread: 0 }],
  tasks: [{ id: '1', subject: 'a', description: '', status: 'pending', blockedBy: [], blocks: [], openBlockers: [], ready: true, claims: [] }],
  messages: [msg(1), msg(2), msg(3)], messageTotal: 3, messageLimit: 3, unread: 3, requests: [], deadLetters: [], leases: [], problems: [], at: 1000,
});

describe('state patches', () => {
  it('carries only what changed, and applies to the same state', () => {
    const a = base();
    const b: WireState = { ...a, version: 2, at: 2000, unread: 3, messageTotal: 4, messages: [a.messages[1]!, { ...a.messages[2]!, delivery: 'read' }, msg(4)] };
    const p = diffStates(a, b)!;
    expect(p).toMatchObject({ base: 1, version: 2, scalars: { at: 2000, messageTotal: 4 } });
    expect(p.messages).toEqual({ upsert: [{ ...a.messages[2], delivery: 'read' }, msg(4)], remove: ['k1'] });
    expect(p.members).toBeUndefined();
    expect(p.tasks).toBeUndefined();
    const c = applyPatch(a, JSON.parse(JSON.stringify(p)));
    expect(c).toEqual(b);
    expect(c.members[0]).toBe(a.members[0]);
    expect(c.messages[0]).toBe(a.messages[1]);
  });

  it('sends the key order when it is not the old one with new items appended', () => {
    const a = base();
    const b: WireState = { ...a, version: 2, messages: [a.messages[2]!, a.messages[0]!, a.messages[1]!] };
    const p = diffStates(a, b)!;
    expect(p.messages).toEqual({ upsert: [], remove: [], order: ['k3', 'k1', 'k2'] });
    expect(applyPatch(a, p).messages.map((m) => m.key)).toEqual(['k3', 'k1', 'k2']);
  });

  it('carries a field that became undefined as null, and applies it as undefined', () => {
    const a = { ...base(), description: 'old' };
    const b = { ...a, version: 2, description: undefined };
    const p = diffStates(a, b)!;
    expect(p.scalars).toEqual({ description: null });
    expect(applyPatch(a, JSON.parse(JSON.stringify(p))).description).toBeUndefined();
  });

  it('is undefined when nothing but the version changed', () => {
    const a = base();
    expect(diffStates(a, { ...a, version: 2, members: a.members.map((m) => ({ ...m })) })).toBeUndefined();
  });

  it('refuses a patch for another version', () => {
    const a = base();
    const p = diffStates(a, { ...a, version: 2, at: 5 })!;
    expect(() => applyPatch({ ...a, version: 7 }, p)).toThrow(/version 1, the page has 7/);
  });
});
