/**
 * The requests pane of `mailroom watch` (issue 13 item 1): open permission and plan requests from a
 * real store, listed by the same use case as `mailroom requests`; `a` approves, `d` asks for a
 * reason and denies, and the answer lands in the requester's inbox in Claude Code's shape.
 */
process.env.TZ = 'UTC';
import { useState } from 'react';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { WatchApp } from '../../../src/tui/app.js';
import { answerRequest, type OpenRequest } from '../../../src/core/messages/approvals.js';
import { followRequests, type RequestsFollower } from '../../../src/core/live/requests-follow.js';
import { sendStructured } from '../../../src/core/messages/send.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { openFsStores } from '../../../src/store/open.js';
import { tick, waitForFrame } from '../../helpers/ink-frames.js';
import { richSnapshot } from '../../helpers/snapshots.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 't' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'bob' });
  const base = { root: openFsStores(dir.path), team: 't', to: 'team-lead' };
  await sendStructured({
    ...base,
    from: 'alice',
    message: { type: 'permission_request', request_id: 'perm-1-abc', agent_id: 'alice', tool_name: 'Bash', tool_use_id: 'toolu_1', description: 'npm publish', input: { command: 'npm publish' }, permission_suggestions: [] },
  });
  await sendStructured({ ...base, from: 'bob', message: { type: 'plan_approval_request', requestId: 'plan_approval-1-def', planFilePath: '/tmp/plan.md', planContent: 'Drop the users table\nthen rebuild it' } });
});
afterEach(async () => {
  cleanup();
  await dir.cleanup();
});

/** The screen with the open requests of the real store, listed again after each answer (as run.tsx does on the feed). */
function Screen({ follower }: { follower: RequestsFollower }) {
  const [requests, setRequests] = useState<readonly OpenRequest[]>(follower.current());
  const onAnswer = async (id: string, approve: boolean, reason: string | undefined) => {
    const a = await answerRequest({ root: openFsStores(dir.path), team: 't', requestId: id, approve, reason });
    await follower.refresh();
    setRequests(follower.current());
    return `${a.approved ? 'approved' : 'denied'} ${a.request.id}`;
  };
  return <WatchApp snapshot={richSnapshot()} columns={120} rows={40} onSend={async () => ''} onQuit={() => undefined} requests={requests} onAnswer={onAnswer} />;
}

async function press(stdin: { write(s: string): void }, ...keys: string[]) {
  for (const k of keys) {
    stdin.write(k);
    await tick();
  }
}

const inbox = async (name: string) => (await openFsStores(dir.path).team.readInbox('t', name)).map((e) => ({ from: e.from, message: JSON.parse(e.text) as Record<string, unknown> }));

it('lists the open requests, approves one with a and denies the other with d and a reason', async () => {
  const follower = await followRequests({ root: openFsStores(dir.path), team: 't' }, () => undefined);
  const { lastFrame, stdin } = render(<Screen follower={follower} />);
  let frame = await waitForFrame(lastFrame, (f) => f.includes('Requests (2 open)'));
  expect(frame).toMatch(/permission +alice +perm-1-abc +Bash: npm publish/);
  expect(frame).toMatch(/plan +bob +plan_approval-1-def +plan: Drop the users table/);
  expect(frame.split('\n').at(-1)).toContain('a/d approve/deny');

  await press(stdin, '4', 'a');
  frame = await waitForFrame(lastFrame, (f) => f.includes('approved perm-1-abc') && f.includes('Requests (1 open)'));
  expect(frame).not.toContain('perm-1-abc  ');
  expect((await inbox('alice')).at(-1)).toEqual({
    from: 'team-lead',
    message: { type: 'permission_response', request_id: 'perm-1-abc', subtype: 'success', response: { updated_input: { command: 'npm publish' }, permission_updates: [] }, tool_use_id: 'toolu_1' },
  });

  await press(stdin, 'd');
  await waitForFrame(lastFrame, (f) => f.includes('Deny plan_approval-1-def from bob'));
  await press(stdin, '\r'); // no reason yet: Enter does nothing
  await press(stdin, 'keep the x', '\u007f', 'data');
  await waitForFrame(lastFrame, (f) => f.includes('reason: keep the data'));
  await press(stdin, '\r');
  frame = await waitForFrame(lastFrame, (f) => f.includes('denied plan_approval-1-def'));
  expect(frame).not.toContain('Requests (');
  expect(frame).toContain('Roster (');
  const answer = (await inbox('bob')).at(-1)!;
  expect(answer.from).toBe('team-lead');
  expect(answer.message).toMatchObject({ type: 'plan_approval_response', requestId: 'plan_approval-1-def', approved: false, feedback: 'keep the data' });
  expect(await follower.refresh().then(() => follower.current())).toEqual([]);
});

it('Esc leaves the deny form without answering', async () => {
  const follower = await followRequests({ root: openFsStores(dir.path), team: 't' }, () => undefined);
  const { lastFrame, stdin } = render(<Screen follower={follower} />);
  await waitForFrame(lastFrame, (f) => f.includes('Requests (2 open)'));
  await press(stdin, '4', 'j', 'd', 'no');
  await waitForFrame(lastFrame, (f) => f.includes('Deny plan_approval-1-def') && f.includes('reason: no'));
  await press(stdin, '\u001b');
  await waitForFrame(lastFrame, (f) => f.includes('Requests (2 open)'));
  expect((await inbox('bob')).length).toBe(0);
});
