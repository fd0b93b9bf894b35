/**
 * The leases pane of `mailroom watch` (issue 26 item 3): the live path leases of a real store —
 * holder, exclusive or shared, expiry, paths and reason — followed on the team's feed as run.tsx
 * does (src/tui/leases-follow.ts); a release takes its row away, and with no lease left the pane goes.
 */
process.env.TZ = 'UTC';
import { useEffect, useState } from 'react';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { WatchApp } from '../../../src/tui/app.js';
import { followLeases, type FollowedLeases } from '../../../src/tui/leases-follow.js';
import { acquireLease, releaseLeases } from '../../../src/core/leases/path-leases.js';
import { TeamFeed } from '../../../src/core/live/feed.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import type { PathLease } from '../../../src/protocol/path-lease.js';
import { openFsStores } from '../../../src/store/open.js';
import type { Stores } from '../../../src/store/selection.js';
import { waitForFrame } from '../../helpers/ink-frames.js';
import { richSnapshot } from '../../helpers/snapshots.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
let stores: Stores;
let feed: TeamFeed;
let followed: FollowedLeases | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
  stores = openFsStores(dir.path);
  await createTeam({ root: stores, team: 't' });
  await spawnMember({ root: stores, team: 't', name: 'alice' });
  await spawnMember({ root: stores, team: 't', name: 'bob' });
  feed = await TeamFeed.open(stores, 't', { pollMs: 200 });
});
afterEach(async () => {
  cleanup();
  followed?.close();
  await feed.close();
  await dir.cleanup();
});

/** The screen with the leases the follower lists (re-rendered on each change, as run.tsx emits). */
function Screen({ follow }: { follow: FollowedLeases }) {
  const [leases, setLeases] = useState<readonly PathLease[]>(follow.current());
  useEffect(() => {
    const timer = setInterval(() => setLeases(follow.current()), 20);
    return () => clearInterval(timer);
  }, [follow]);
  return <WatchApp snapshot={richSnapshot()} columns={140} rows={44} onSend={async () => ''} onQuit={() => undefined} leases={leases} />;
}

it('shows who holds which paths, exclusive or shared, until when and why; a release takes the row away', async () => {
  const repo = dir.path;
  const a = await acquireLease({ root: stores, team: 't', as: 'alice', paths: ['src/store/**'], ttlMs: 30 * 60_000, reason: 'rewriting the lock', repo, cwd: repo });
  await acquireLease({ root: stores, team: 't', as: 'bob', paths: ['docs/x.md', 'README.md'], shared: true, ttlMs: 10 * 60_000, repo, cwd: repo });
  followed = await followLeases({ root: stores, team: 't' }, feed, () => undefined);
  const { lastFrame } = render(<Screen follow={followed} />);
  let frame = await waitForFrame(lastFrame, (f) => f.includes('Leases (2: 1 exclusive, 1 shared)'));
  const until = (ms: number) => `until ${new Date(ms).toISOString().slice(11, 19)}`;
  expect(frame).toMatch(new RegExp(`alice +exclusive +${until(a.expiresAt)} +src/store/\\*\\* — rewriting the lock`));
  expect(frame).toMatch(/bob +shared +until \d\d:\d\d:\d\d +docs\/x\.md README\.md/);
  // The pane sits under the roster, above the task board.
  expect(frame.indexOf('Roster (')).toBeLessThan(frame.indexOf('Leases ('));
  expect(frame.indexOf('Leases (')).toBeLessThan(frame.indexOf('Tasks ('));

  await releaseLeases({ root: stores, team: 't', as: 'alice', all: true });
  frame = await waitForFrame(lastFrame, (f) => f.includes('Leases (1: 0 exclusive, 1 shared)'));
  expect(frame).not.toContain('src/store/**');
  await releaseLeases({ root: stores, team: 't', as: 'bob', all: true });
  frame = await waitForFrame(lastFrame, (f) => !f.includes('Leases ('));
  expect(frame).toContain('Roster (');
});

it('shows no leases pane while no lease is live', async () => {
  followed = await followLeases({ root: stores, team: 't' }, feed, () => undefined);
  const { lastFrame } = render(<Screen follow={followed} />);
  const frame = await waitForFrame(lastFrame, (f) => f.includes('Roster ('));
  expect(frame).not.toContain('Leases (');
});
