import { describe, expect, it } from 'vitest';
import { canonicalTask, type Task } from '../../../src/protocol/task.js';

const base = (): Record<string, unknown> => ({ id: '3', subject: 's', description: '', status: 'pending', blocks: [], blockedBy: [] });

describe('canonicalTask', () => {
  it("writes a new task in Claude Code's key order", () => {
    const t = { blockedBy: [], blocks: [], status: 'pending', metadata: { a: 1 }, owner: 'bob', activeForm: 'Doing', description: '', subject: 's', id: '3' };
    expect(Object.keys(canonicalTask(t as Task))).toEqual(['id', 'subject', 'description', 'activeForm', 'owner', 'status', 'blocks', 'blockedBy', 'metadata']);
  });

  it('keeps the order the file had, unknown keys included', () => {
    const t = { id: '3', subject: 's', 'x-future': 1, description: '', status: 'pending', blocks: [], blockedBy: [] };
    expect(Object.keys(canonicalTask(t as Task, Object.keys(t)))).toEqual(Object.keys(t));
  });

  it("puts an added owner where Claude Code does, before status, and drops a cleared one", () => {
    const t = base();
    const keys = Object.keys(t);
    t.owner = 'alice';
    expect(Object.keys(canonicalTask(t as Task, keys))).toEqual(['id', 'subject', 'description', 'owner', 'status', 'blocks', 'blockedBy']);
    t.owner = undefined;
    expect(Object.keys(canonicalTask(t as Task, keys))).toEqual(keys);
  });

  it('adds new unknown keys last', () => {
    const t = base();
    const keys = Object.keys(t);
    t.zeta = true;
    t.metadata = { k: 'v' };
    expect(Object.keys(canonicalTask(t as Task, keys)).slice(-2)).toEqual(['metadata', 'zeta']);
  });

  it('keeps a __proto__ key from a file as an own data key', () => {
    const t = JSON.parse('{"id":"3","subject":"s","description":"","status":"pending","blocks":[],"blockedBy":[],"__proto__":{"owner":"mallory"}}') as Task;
    const out = canonicalTask(t, Object.keys(t));
    expect(Object.keys(out)).toContain('__proto__');
    expect(out.owner).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe(JSON.stringify(t));
  });
});
