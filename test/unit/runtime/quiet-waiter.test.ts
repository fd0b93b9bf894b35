/**
 * An idle teammate's waiter on the filesystem (src/runtime/wake/waiter.ts, issue 24 item 3): the
 * safety-net tick compares the store's change stamp (a `stat` of config, inbox, task directory)
 * and re-reads only when it moved, or every FULL_CHECK_EVERY ticks; a send to the member is checked
 * as `inboxOnly` (no roster or board re-read); any other change is a full check.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam, openFsStores, sendMessage, spawnMember, addTask } from '../../../src/index.js';
import { TeamFeed, type FeedHint } from '../../../src/core/live/feed.js';
import { FULL_CHECK_EVERY, Waiter, type WakeReason } from '../../../src/runtime/wake/waiter.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { until } from '../../helpers/runtime.js';

let dir: TempDir;
let feed: TeamFeed | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await feed?.close();
  await dir.cleanup();
});

/** A waiter on a real feed (watch, tick every `pollMs`; 0: none) whose check records each reason. */
async function watchChecks(pollMs: number) {
  const store = openFsStores(dir.path);
  await createTeam({ root: store, team: 't' });
  await spawnMember({ root: store, team: 't', name: 'bob' });
  feed = await TeamFeed.open(store, 't', { pollMs });
  let ticks = 0;
  feed.subscribe((h) => void (h.kind === 'tick' && ticks++));
  const waiter = new Waiter<true>(feed, 'bob', true, () => store.team.changeStamp!('t', 'bob'));
  const checks: WakeReason[] = [];
  const stop = new AbortController();
  const done = waiter.next(async (reason) => void checks.push(reason), stop.signal);
  return { store, checks, ticks: () => ticks, stop: async () => (stop.abort(), waiter.close(), await done) };
}

describe('the quiet waiter (files)', () => {
  it('ticks without re-reading while nothing changed, and re-reads in full every FULL_CHECK_EVERY ticks', async () => {
    const h = await handFed();
    await until(() => h.checks.length === 1, 10_000, 'the first check');
    for (let i = 1; i < FULL_CHECK_EVERY; i++) await h.tick();
    expect(h.checks).toEqual([{ inboxOnly: false }]);
    await h.tick();
    await until(() => h.checks.length === 2, 10_000, 'a full re-read after FULL_CHECK_EVERY ticks');
    expect(h.checks[1]).toEqual({ inboxOnly: false });
    await h.stop();
  });

  it('checks a send to the member as inboxOnly (no safety-net tick needed), and a task change in full', async () => {
    const w = await watchChecks(0); // no tick at all: only the watch wakes it
    await until(() => w.checks.length === 1, 10_000, 'the first check');
    await sendMessage({ root: w.store, team: 't', to: 'bob', text: 'hi' });
    await until(() => w.checks.length >= 2, 10_000, 'a check after the send');
    expect(w.checks[1]).toEqual({ inboxOnly: true });
    const n = w.checks.length;
    await addTask({ root: w.store, team: 't', subject: 'x' });
    await until(() => w.checks.slice(n).some((c) => !c.inboxOnly), 10_000, 'a full check after a task change');
    await w.stop();
  });

  it('re-reads at the next tick when a file changed that no watch reported', async () => {
    const h = await handFed();
    await until(() => h.checks.length === 1, 10_000, 'the first check');
    for (let i = 0; i < 5; i++) await h.tick();
    expect(h.checks).toHaveLength(1);
    await sendMessage({ root: h.store, team: 't', to: 'bob', text: 'hi' }); // no hint: no watch here
    await h.tick();
    await until(() => h.checks.length >= 2, 10_000, 'a re-read after the stamp moved');
    expect(h.checks[1]).toEqual({ inboxOnly: false });
    await h.stop();
  });
});

/**
 * A waiter fed by hand: no watch, ticks only when `tick()` is called (it resolves once the waiter
 * had the chance to handle it). Its check records each reason and never finds work.
 */
async function handFed() {
  const store = openFsStores(dir.path);
  await createTeam({ root: store, team: 't' });
  await spawnMember({ root: store, team: 't', name: 'bob' });
  const listeners = new Set<(h: FeedHint) => void>();
  const hints = { subscribe: (l: (h: FeedHint) => void) => (listeners.add(l), () => listeners.delete(l)) } as unknown as TeamFeed;
  const waiter = new Waiter<true>(hints, 'bob', true, () => store.team.changeStamp!('t', 'bob'));
  const checks: WakeReason[] = [];
  const stop = new AbortController();
  const done = waiter.next(async (r) => void checks.push(r), stop.signal);
  const settle = () => new Promise((r) => setTimeout(r, 5));
  return {
    store,
    checks,
    tick: async () => (listeners.forEach((l) => l({ kind: 'tick' })), await settle()),
    stop: async () => (stop.abort(), waiter.close(), await done),
  };
}
