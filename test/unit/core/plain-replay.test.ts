/**
 * Replay memory for signed plain messages and the lead-side checks (issue 22 items 2–3) on a real
 * filesystem store: a consumed plain message appended again is `replayed`; a redelivery of the
 * same stored entry is not; the memory is bounded (SEEN_LIMIT) and what falls below its floor
 * cannot pass as fresh; a shutdown answer counts only from the teammate asked, signed.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AnswerCheck } from '../../../src/core/members/shutdown-answer.js';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { sendMessage, sendStructured } from '../../../src/core/messages/send.js';
import { addSeen, ControlGuard } from '../../../src/core/teams/signing.js';
import { SEEN_LIMIT } from '../../../src/protocol/identity-files.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';
import type { Stores } from '../../../src/store/selection.js';
import { signedFsTeam } from '../../helpers/signed-team.js';
import type { TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
let root: Stores;
const team = 'demo';
beforeEach(async () => ({ dir, root } = await signedFsTeam(team, ['alice', 'bob'])));
afterEach(async () => dir.cleanup());

const last = async (name: string) => (await root.team.readInbox(team, name)).at(-1)!;

it('a signed plain message consumed once is refused when a copy arrives unread again', async () => {
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'deploy the branch' });
  const original = await last('alice');
  const guard = new ControlGuard({ root, team }, 'alice');
  expect((await guard.judge([original])).verified.has(original)).toBe(true);
  await guard.remember([original]);
  const copy: InboxEntry = { ...original, read: false };
  const again = await new ControlGuard({ root, team }, 'alice').judge([copy]);
  expect(again.refused.map((r) => r.check)).toEqual(['replayed']);
  expect(again.refused[0]!.reason).toContain('a copy appended again');
  // The same stored entry handed out again (not acknowledged) is not a copy.
  const redelivered = await new ControlGuard({ root, team }, 'alice').judge([copy], { redelivered: new Set([copy]) });
  expect(redelivered.verified.has(copy)).toBe(true);
  // History (read) is judged by its signature alone.
  expect((await new ControlGuard({ root, team }, 'alice').judge([{ ...original, read: true }])).refused).toEqual([]);
});

it('two copies of one signed message in a batch: the second is a replay', async () => {
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'once' });
  const e = await last('alice');
  const j = await new ControlGuard({ root, team }, 'alice').judge([e, { ...e }]);
  expect(j.verified.size).toBe(1);
  expect(j.refused.map((r) => r.check)).toEqual(['replayed']);
});

it('the replay memory keeps at most SEEN_LIMIT nonces and raises its floor', async () => {
  const added: [string, number][] = Array.from({ length: SEEN_LIMIT + 10 }, (_, i) => [`n${i}`, 1000 + i]);
  const seen = addSeen(undefined, added);
  expect(Object.keys(seen.ids)).toHaveLength(SEEN_LIMIT);
  expect(seen.floor).toBe(1009);
  expect(seen.ids.n0).toBeUndefined();
  expect(seen.ids[`n${SEEN_LIMIT + 9}`]).toBe(1000 + SEEN_LIMIT + 9);
  // A message signed before the floor cannot pass as fresh.
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'old' });
  const e = await last('alice');
  await root.host.writeSeen(team, 'alice', { v: 1, floor: Date.now() + 60_000, ids: {} });
  const j = await new ControlGuard({ root, team }, 'alice').judge([e]);
  expect(j.refused[0]?.check).toBe('replayed');
  expect(j.refused[0]?.reason).toContain('cannot be told from a replay');
});

it('mailroom inbox: verified per message, a forged one failed with its reason, a replayed copy flagged', async () => {
  await sendMessage({ root, team, from: 'bob', to: 'alice', text: 'genuine' });
  const genuine = await last('alice');
  await root.team.appendMessages(team, [{ to: 'alice', entry: { from: 'bob', text: 'forged', timestamp: new Date().toISOString(), msg_id: 'forged', read: false } }]);
  const view = await readInbox({ root, team, agent: 'alice', markRead: true });
  expect(view.messages.map((m) => [m.entry.text, m.verified, m.check])).toEqual([
    ['genuine', true, undefined],
    ['forged', false, 'unsigned'],
  ]);
  // Consumed (marked read): a copy appended again is a replay.
  const copy = await root.team.appendMessages(team, [{ to: 'alice', entry: { ...genuine, msg_id: genuine.msg_id, read: false } }]);
  expect(copy.value.messages[0]!.entry.read).toBe(true); // the store keeps one copy per msg_id …
  const entries = await root.team.readInbox(team, 'alice');
  const listed = await new ControlGuard({ root, team }, 'alice').judge([{ ...entries[0]!, read: false }]);
  expect(listed.refused[0]?.check).toBe('replayed'); // … and a copy written around it is refused
});

it('a shutdown answer counts only from the teammate asked, signed in a signed team', async () => {
  const { requestId } = await sendStructured({ root, team, to: 'bob', message: { type: 'shutdown_request' } }).then((s) => ({ requestId: (s.message as { requestId: string }).requestId }));
  const approval = (from: string) => ({ from, text: JSON.stringify({ type: 'shutdown_approved', requestId, from: 'bob', timestamp: new Date().toISOString() }), timestamp: new Date().toISOString(), msg_id: crypto.randomUUID() });
  const check = new AnswerCheck({ root, team }, 'team-lead', 'bob');
  expect(await check.accepts(approval('mallory'), 'shutdown_approved')).toBe(false);
  expect(await check.accepts(approval('alice'), 'shutdown_approved')).toBe(false);
  expect(await check.accepts(approval('bob'), 'shutdown_approved')).toBe(false); // unsigned, and bob signs
  await sendStructured({ root, team, from: 'bob', to: 'team-lead', message: { type: 'shutdown_approved', requestId, from: 'bob' } });
  expect(await check.accepts(await last('team-lead'), 'shutdown_approved')).toBe(true);
  const refusals = (await root.team.readEvents(team)).events.filter((e) => e.kind === 'refused');
  expect(refusals.map((e) => (e as { rule: string }).rule)).toEqual(['shutdown-answer', 'shutdown-answer', 'signature']);
});
