import { describe, expect, it } from 'vitest';
import { addUnique, findCycle, indexTasks, isInternal, isReady, openBlockers } from '../../../src/domain/task-board.js';
import type { Task } from '../../../src/protocol/task.js';

function task(id: string, fields: Partial<Task> = {}): Task {
  return { id, subject: `task ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [], ...fields } as Task;
}

/** Board: 1 completed; 2 pending blocked by 1; 3 pending blocked by 2; 4 blocked by a task that is gone. */
const board = indexTasks([
  task('1', { status: 'completed', blocks: ['2'] }),
  task('2', { blockedBy: ['1'], blocks: ['3'] }),
  task('3', { blockedBy: ['2'] }),
  task('4', { blockedBy: ['99'] }),
]);

describe('openBlockers', () => {
  it('lists blockers that exist and are not completed', () => {
    expect(openBlockers(board.get('3')!, board)).toEqual(['2']);
  });
  it('drops completed blockers and blockers that no longer exist', () => {
    expect(openBlockers(board.get('2')!, board)).toEqual([]);
    expect(openBlockers(board.get('4')!, board)).toEqual([]);
  });
  it('keeps the order of blockedBy', () => {
    const b = indexTasks([task('5'), task('6'), task('7', { blockedBy: ['6', '5'] })]);
    expect(openBlockers(b.get('7')!, b)).toEqual(['6', '5']);
  });
});

describe('isInternal', () => {
  it('is true only for metadata._internal === true', () => {
    expect(isInternal(task('1', { metadata: { _internal: true } }))).toBe(true);
    expect(isInternal(task('1', { metadata: { _internal: 'true' } }))).toBe(false);
    expect(isInternal(task('1', { metadata: {} }))).toBe(false);
    expect(isInternal(task('1'))).toBe(false);
  });
});

describe('isReady', () => {
  it('pending, unowned, unblocked, not internal', () => {
    expect(isReady(board.get('2')!, board)).toBe(true);
    expect(isReady(board.get('4')!, board)).toBe(true);
  });
  it('not when blocked by an open task', () => {
    expect(isReady(board.get('3')!, board)).toBe(false);
  });
  it('not when owned; an empty owner counts as unowned', () => {
    expect(isReady(task('8', { owner: 'alice' }), board)).toBe(false);
    expect(isReady(task('8', { owner: '' }), board)).toBe(true);
  });
  it('not when in progress or completed', () => {
    expect(isReady(task('8', { status: 'in_progress' }), board)).toBe(false);
    expect(isReady(task('8', { status: 'completed' }), board)).toBe(false);
  });
  it('not when internal', () => {
    expect(isReady(task('8', { metadata: { _internal: true } }), board)).toBe(false);
  });
});

describe('indexTasks', () => {
  it('maps ids to tasks', () => {
    const tasks = [task('1'), task('10')];
    const byId = indexTasks(tasks);
    expect([...byId.keys()]).toEqual(['1', '10']);
    expect(byId.get('10')).toBe(tasks[1]);
  });
});

describe('findCycle', () => {
  it('refuses a task blocked by itself', () => {
    expect(findCycle('2', '2', board)).toEqual(['2', '2']);
  });
  it('finds a two-task cycle: 1 blocked by 2 while 2 is blocked by 1', () => {
    expect(findCycle('1', '2', board)).toEqual(['1', '2', '1']);
  });
  it('finds a longer cycle and lists it in order', () => {
    expect(findCycle('1', '3', board)).toEqual(['1', '3', '2', '1']);
  });
  it('allows edges that close no cycle, including diamonds', () => {
    expect(findCycle('3', '1', board)).toBeUndefined();
    expect(findCycle('4', '3', board)).toBeUndefined();
    const diamond = indexTasks([task('1'), task('2', { blockedBy: ['1'] }), task('3', { blockedBy: ['1'] }), task('4', { blockedBy: ['2'] })]);
    expect(findCycle('4', '3', diamond)).toBeUndefined();
  });
  it('handles a chain of 100 000 tasks without overflowing the stack', () => {
    const n = 100_000;
    const chain = indexTasks(Array.from({ length: n }, (_, i) => task(String(i + 1), { blockedBy: i + 1 < n ? [String(i + 2)] : [] })));
    const cycle = findCycle(String(n), '1', chain);
    expect(cycle).toHaveLength(n + 1);
    expect(cycle?.slice(0, 3)).toEqual([String(n), '1', '2']);
    expect(cycle?.at(-1)).toBe(String(n));
  });
  it('follows edges through tasks it has not seen without looping forever', () => {
    const loop = indexTasks([task('1', { blockedBy: ['2'] }), task('2', { blockedBy: ['1'] }), task('3')]);
    expect(findCycle('3', '1', loop)).toBeUndefined();
  });
});

describe('addUnique', () => {
  it('adds a value once', () => {
    const list = ['1'];
    addUnique(list, '2');
    addUnique(list, '2');
    addUnique(list, '1');
    expect(list).toEqual(['1', '2']);
  });
});
