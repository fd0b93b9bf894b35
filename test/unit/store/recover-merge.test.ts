/**
 * The per-kind merges of a displaced write (src/store/fs/recover-inbox.ts, recover-object.ts):
 * `base` is what the paused writer read, `mine` what it wrote, `replaced` what the holder that took
 * its lock over had written (and the rename replaced), `current` the file now.
 */
import { describe, expect, it } from 'vitest';
import { mergeInbox } from '../../../src/store/fs/recover-inbox.js';
import { mergeHighWatermark, mergeObject } from '../../../src/store/fs/recover-object.js';

const e = (text: string, extra: Record<string, unknown> = {}) => ({ from: 'a', text, timestamp: `2026-01-01T00:00:00.00${text.length}Z`, read: false, msg_id: text, ...extra });
const j = (v: unknown) => JSON.stringify(v, null, 2);
const texts = (t: string) => (JSON.parse(t) as Array<{ text: string }>).map((x) => x.text);

describe('mergeInbox', () => {
  it('restores what the other writer appended, each after the entry it followed, and keeps the paused append', () => {
    const base = [e('x')];
    const out = mergeInbox({ base: j(base), mine: j([...base, e('mine')]), replaced: j([...base, e('b1'), e('b2')]), current: j([...base, e('mine'), e('b3')]) });
    expect(texts(out.text)).toEqual(['x', 'b1', 'b2', 'mine', 'b3']);
    expect(out.mineKept).toBe(true);
    expect(out.note).toMatch(/restored 2 entries/);
  });

  it('removes again what the other writer removed (Claude Code 2.1.332 removes delivered entries), so nothing is delivered twice', () => {
    const base = [e('old'), e('x')];
    const out = mergeInbox({ base: j(base), mine: j([...base, e('mine')]), replaced: j([e('x')]), current: j([...base, e('mine')]) });
    expect(texts(out.text)).toEqual(['x', 'mine']);
  });

  it('re-applies read marks, and a later change of the same field stands', () => {
    const base = [e('x'), e('y')];
    const replaced = [e('x', { read: true }), e('y', { read: true })];
    const current = [e('x'), e('y', { read: false, summary: 'later' })];
    const out = JSON.parse(mergeInbox({ base: j(base), mine: j(base), replaced: j(replaced), current: j(current) }).text) as Array<{ read: boolean }>;
    expect(out.map((x) => x.read)).toEqual([true, true]);
  });

  it('without a base keeps every entry of both', () => {
    const out = mergeInbox({ base: undefined, mine: j([e('mine')]), replaced: j([e('b1')]), current: j([e('mine')]) });
    expect(texts(out.text).sort()).toEqual(['b1', 'mine']);
  });
});

describe('mergeObject', () => {
  const task = { id: '1', subject: 's', description: '', status: 'pending', blocks: [], blockedBy: [] as string[], metadata: { k: 1 } };

  it('keeps both writers’ changes of different keys, nested metadata and array elements', () => {
    const mine = { ...task, description: 'mine', blockedBy: ['2'] };
    const replaced = { ...task, status: 'in_progress', blockedBy: ['3'], metadata: { k: 1, theirs: true } };
    const current = { ...mine, metadata: { k: 1, later: true } };
    const out = mergeObject({ base: j(task), mine: j(mine), replaced: j(replaced), current: j(current) });
    expect(JSON.parse(out.text)).toEqual({ ...task, description: 'mine', status: 'in_progress', blockedBy: ['3', '2'], metadata: { k: 1, theirs: true, later: true } });
    expect(out.mineKept).toBe(true);
  });

  it('lets the other writer’s value win where both changed it, and asks for the operation to run again', () => {
    const out = mergeObject({ base: j(task), mine: j({ ...task, owner: 'a' }), replaced: j({ ...task, owner: 'b' }), current: j({ ...task, owner: 'a' }) });
    expect((JSON.parse(out.text) as { owner: string }).owner).toBe('b');
    expect(out.mineKept).toBe(false);
  });

  it('merges config members by agentId', () => {
    const m = (name: string) => ({ agentId: `${name}@t`, name });
    const base = { name: 't', members: [m('lead')] };
    const out = mergeObject({ base: j(base), mine: j({ ...base, members: [m('lead'), m('x')] }), replaced: j({ ...base, members: [m('lead'), m('y')] }), current: j({ ...base, members: [m('lead'), m('x')] }) });
    expect((JSON.parse(out.text) as typeof base).members.map((x) => x.name)).toEqual(['lead', 'y', 'x']);
    expect(out.mineKept).toBe(true);
  });

  it('keeps __proto__ an ordinary key', () => {
    const base = JSON.parse('{"a":1}') as object;
    const out = mergeObject({ base: j(base), mine: j(base), replaced: '{"a":1,"__proto__":{"polluted":true}}', current: j(base) });
    expect(out.text).toContain('"__proto__"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('mergeHighWatermark', () => {
  it('keeps the higher mark', () => {
    expect(mergeHighWatermark({ base: '3', mine: '4', replaced: '9', current: '4' }).text).toBe('9');
    expect(mergeHighWatermark({ base: '3', mine: '9', replaced: '4', current: '9' }).text).toBe('9');
  });
});
