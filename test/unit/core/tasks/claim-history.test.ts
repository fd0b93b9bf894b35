/** The claim history fold (src/core/tasks/claim-history.ts) over journal events: each way a claim starts and ends. */
import { describe, expect, it } from 'vitest';
import { ClaimHistory } from '../../../../src/core/tasks/claim-history.js';
import type { TeamEventRecord } from '../../../../src/protocol/events.js';

let n = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 0, 0, n++)).toISOString();
const task = (action: 'created' | 'updated' | 'deleted', fields: { owner?: string; status?: string; fencingToken?: number }, actor?: string, when = at()): TeamEventRecord =>
  ({ v: 2, team: 't', at: when, source: 'mailroom', actor, kind: 'task', action, task: { id: '1', subject: 's', description: '', status: 'pending', blocks: [], blockedBy: [], ...fields } }) as TeamEventRecord;

describe('ClaimHistory', () => {
  it('records a claim with its token, a release by the owner, a sweep, a completion', () => {
    const h = new ClaimHistory();
    h.apply([
      task('created', {}, 'lead'),
      task('updated', { owner: 'alice', status: 'in_progress', fencingToken: 1 }, 'alice'),
      task('updated', { owner: '', status: 'pending', fencingToken: 1 }, 'alice'),
      task('updated', { owner: 'bob', status: 'in_progress', fencingToken: 2 }, 'bob'),
      task('updated', { status: 'pending', fencingToken: 2 }, 'carol'),
      task('updated', { owner: 'alice', status: 'in_progress', fencingToken: 3 }, 'alice'),
      task('updated', { owner: 'alice', status: 'completed', fencingToken: 3 }, 'alice'),
      task('updated', { owner: 'alice', status: 'completed', fencingToken: 3 }, 'lead'), // a later edit starts nothing
    ]);
    expect(h.of('1').map((c) => [c.owner, c.token, c.by, c.ended?.how, c.ended?.by])).toEqual([
      ['alice', 1, 'alice', 'released', 'alice'],
      ['bob', 2, 'bob', 'swept', 'carol'],
      ['alice', 3, 'alice', 'completed', 'alice'],
    ]);
  });

  it('an assignment by the lead, a reassignment, a claim outside mailroom (no token), a delete', () => {
    const h = new ClaimHistory();
    h.apply([
      task('created', { owner: 'alice', fencingToken: 1 }, 'lead'),
      task('updated', { owner: 'bob', fencingToken: 2 }, 'lead'),
      task('updated', { owner: 'carol', fencingToken: 2 }), // Claude Code's own TaskUpdate, observed
      task('deleted', { owner: 'carol', fencingToken: 2 }, 'lead'),
    ]);
    expect(h.of('1').map((c) => [c.owner, c.token, c.by, c.ended?.how])).toEqual([
      ['alice', 1, 'lead', 'reassigned'],
      ['bob', 2, 'lead', 'reassigned'],
      ['carol', undefined, undefined, 'deleted'],
    ]);
  });

  it('an owner that left the team in the same step: `left`; the owner claiming again: `reclaimed`', () => {
    const h = new ClaimHistory();
    const same = at();
    h.apply([
      task('updated', { owner: 'alice', status: 'in_progress', fencingToken: 1 }, 'alice'),
      task('updated', { owner: 'alice', status: 'in_progress', fencingToken: 2 }, 'alice'),
      task('updated', { status: 'pending', fencingToken: 2 }, 'lead', same),
      { v: 2, team: 't', at: same, source: 'mailroom', actor: 'lead', kind: 'member', action: 'left', name: 'alice' } as TeamEventRecord,
    ]);
    expect(h.of('1').map((c) => [c.token, c.ended?.how])).toEqual([[1, 'reclaimed'], [2, 'left']]);
    expect(h.of('2')).toEqual([]);
  });
});
