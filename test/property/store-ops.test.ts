/**
 * Random interleavings of store operations keep the invariants (fast-check, real files and locks
 * in a temp dir): batches of send / read / mark-read / archive / claim / complete / link run
 * concurrently; afterwards no message is lost or duplicated, `read` is set exactly on what was
 * marked, archived entries are read ones, blocks/blockedBy are symmetric, and each task has at
 * most one successful claimant, who owns it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMailroomError, type ErrorCode } from '../../src/errors.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { markRead, readInbox } from '../../src/core/messages/inbox-read.js';
import { archiveInbox } from '../../src/core/messages/inbox-archive.js';
import { claimTask } from '../../src/core/tasks/claim.js';
import { updateTask } from '../../src/core/tasks/update.js';
import { addTask, listTasks } from '../../src/core/tasks/board.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { makeTeam } from '../helpers/team-setup.js';
import { openFsStores } from '../../src/store/open.js';

const AGENTS = ['team-lead', 'a', 'b'] as const;
const IDS = ['1', '2', '3'] as const;
const agent = fc.constantFrom(...AGENTS);
const id = fc.constantFrom(...IDS);
const op = fc.oneof(
  fc.record({ kind: fc.constant('send' as const), from: agent, to: agent, pad: fc.integer({ min: 0, max: 20_000 }) }),
  fc.record({ kind: fc.constant('read' as const), agent }),
  fc.record({ kind: fc.constant('markRead' as const), agent, take: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('archive' as const), agent }),
  fc.record({ kind: fc.constant('claim' as const), id, as: agent }),
  fc.record({ kind: fc.constant('complete' as const), id }),
  fc.record({ kind: fc.constant('link' as const), blocked: id, blocker: id }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** Refusals the rules allow; anything else (LOCK_TIMEOUT, FILE_CORRUPT, INTERNAL…) fails the property. */
const EXPECTED: ErrorCode[] = ['TASK_ALREADY_CLAIMED', 'TASK_ALREADY_RESOLVED', 'TASK_BLOCKED', 'TASK_CYCLE'];

interface World {
  root: string;
  sent: Map<string, string>;
  marked: Set<string>;
  claims: Map<string, Set<string>>;
  n: number;
}

async function run(w: World, o: Op): Promise<void> {
  const base = { root: openFsStores(w.root), team: 't' };
  try {
    switch (o.kind) {
      case 'send': {
        const text = `m${w.n++} ${'x'.repeat(o.pad)}`;
        const sent = await sendMessage({ ...base, from: o.from, to: o.to, text });
        w.sent.set(sent.entry.msg_id!, o.to);
        return;
      }
      case 'read':
        await readInbox({ ...base, agent: o.agent });
        return;
      case 'markRead': {
        const unread = (await readInbox({ ...base, agent: o.agent, unread: true })).messages.slice(0, o.take).map((m) => m.entry);
        for (const e of unread) w.marked.add(e.msg_id!);
        await markRead({ ...base, agent: o.agent, entries: unread });
        return;
      }
      case 'archive':
        await archiveInbox({ ...base, agent: o.agent });
        return;
      case 'claim':
        await claimTask({ ...base, id: o.id, as: o.as });
        w.claims.get(o.id)!.add(o.as);
        return;
      case 'complete':
        await updateTask({ ...base, id: o.id, status: 'completed' });
        return;
      case 'link':
        await updateTask({ ...base, id: o.blocked, addBlockedBy: [o.blocker] });
        return;
    }
  } catch (err) {
    if (!EXPECTED.some((code) => isMailroomError(err, code))) throw err;
  }
}

async function checkInvariants(w: World): Promise<void> {
  const seen = new Map<string, number>();
  for (const agentName of AGENTS) {
    const view = await readInbox({ root: openFsStores(w.root), team: 't', agent: agentName, includeArchived: true });
    for (const m of view.messages) {
      const key = m.entry.msg_id!;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      expect(w.sent.get(key)).toBe(agentName);
      expect(m.entry.read === true).toBe(w.marked.has(key));
      if (m.archived) expect(m.entry.read).toBe(true);
    }
  }
  expect([...seen.values()].every((c) => c === 1)).toBe(true);
  expect(seen.size).toBe(w.sent.size);
  const tasks = (await listTasks({ root: openFsStores(w.root), team: 't' })).map((v) => v.task);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  for (const t of tasks) {
    for (const b of t.blockedBy) expect(byId.get(b)?.blocks).toContain(t.id);
    for (const b of t.blocks) expect(byId.get(b)?.blockedBy).toContain(t.id);
    const claimants = w.claims.get(t.id)!;
    expect(claimants.size).toBeLessThanOrEqual(1);
    if (claimants.size === 1) expect(t.owner).toBe([...claimants][0]);
  }
}

describe('store operations under random concurrent interleavings', () => {
  it('keep every invariant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }), async (batches) => {
        const tmp = await makeTempDir('mailroom-prop-');
        try {
          await makeTeam(tmp.path, 't', ['a', 'b']);
          for (const subject of IDS) await addTask({ root: openFsStores(tmp.path), team: 't', subject: `job ${subject}` });
          const w: World = { root: tmp.path, sent: new Map(), marked: new Set(), claims: new Map(IDS.map((i) => [i, new Set()])), n: 0 };
          for (const batch of batches) await Promise.all(batch.map((o) => run(w, o)));
          await checkInvariants(w);
        } finally {
          await tmp.cleanup();
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
