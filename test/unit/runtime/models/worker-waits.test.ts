/**
 * The worker model with nothing to claim (new-user trial, session 17): it said "No ready task
 * left." while the other tasks were only blocked, so the demo read as if the workers gave up. It
 * now reads the board (TaskList) and says what it waits for, or that every task is completed. The
 * tool results are the runtime's views (src/tools/entries/claim.ts, tasks.ts `compact`); the whole
 * path runs for real in test/e2e/run.test.ts (npm run demo).
 */
import { describe, expect, it } from 'vitest';
import { createWorkerModel } from '../../../../src/runtime/models/worker.js';
import type { ModelRequest, ModelResponse } from '../../../../src/runtime/models/types.js';

/** A request whose last turn answers the worker's one call of `tool` with `result`. */
function after(tool: string, result: unknown): ModelRequest {
  return {
    system: '',
    tools: [],
    signal: new AbortController().signal,
    teammate: { team: 't', name: 'bob', lead: 'team-lead', cwd: '/' },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'work' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: tool, input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c1', content: JSON.stringify(result) }] },
    ],
  };
}

const text = (r: ModelResponse) => r.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
const task = (id: string, status: string, owner: string | undefined, openBlockers: string[] = []) => ({ id, subject: `task ${id}`, status, ...(owner ? { owner } : {}), blocks: [], blockedBy: openBlockers, openBlockers, ready: false });

describe('the worker model with no ready task', () => {
  it('reads the board instead of ending the turn', async () => {
    const reply = await createWorkerModel().call(after('TaskClaim', { claimed: null }));
    expect(reply.stopReason).toBe('tool_use');
    expect(reply.content).toEqual([expect.objectContaining({ type: 'tool_use', name: 'TaskList' })]);
  });

  it('says which open tasks the blocked ones wait on first, and who has them', async () => {
    const board = [task('1', 'in_progress', 'alice'), task('2', 'pending', undefined, ['1']), task('3', 'pending', undefined, ['2']), task('4', 'completed', 'carol')];
    const reply = await createWorkerModel().call(after('TaskList', board));
    expect(reply.stopReason).toBe('end_turn');
    expect(text(reply)).toBe('Nothing is ready for me yet: #2, #3 wait on #1 (alice). I will claim the next task once it is unblocked.');
  });

  it('says when the open tasks are all taken, when all are completed, and when the board is empty', async () => {
    expect(text(await createWorkerModel().call(after('TaskList', [task('1', 'in_progress', 'alice'), task('2', 'completed', 'bob')])))).toBe('Nothing left for me to claim: #1 (alice) is taken.');
    expect(text(await createWorkerModel().call(after('TaskList', [task('1', 'completed', 'alice')])))).toBe('Every task is completed: nothing left for me to do.');
    expect(text(await createWorkerModel().call(after('TaskList', [])))).toBe('The task board is empty: nothing for me to do.');
  });
});
