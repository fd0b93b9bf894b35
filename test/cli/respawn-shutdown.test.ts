/**
 * Re-spawning a name used before (fresh-user trial): a member removed with a `shutdown_request` it never
 * read leaves it unread in `inboxes/<name>.json`. A new member registered with
 * that name must not take it as its own: it does its task instead of leaving the team 50 ms after
 * starting, and the request reads `read: true` in the file (it was for the earlier member).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { InboxEntry } from '../../src/protocol/inbox.js';
import { requestShutdown } from '../../src/core/members/shutdown.js';
import { openFsStores } from '../../src/store/open.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroom, mailroomOk, readJson } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'dan');
  // A request nothing answered (e.g. its runtime died before reading it), then dan removed.
  await requestShutdown({ root: openFsStores(dir.path), team: 'demo', to: 'dan' });
  await mailroomOk(dir.path, 'team', 'stop', 'dan', '--timeout', '500');
});
afterEach(async () => {
  await mailroom(dir.path, 'team', 'stop', 'dan', '--force');
  await dir.cleanup();
});

function shutdownRequests(entries: readonly InboxEntry[]): InboxEntry[] {
  return entries.filter((e) => e.text.includes('"shutdown_request"'));
}

it('a process member re-spawned after a forced stop does its task instead of shutting down', async () => {
  const inbox = join(dir.path, 'teams', 'demo', 'inboxes', 'dan.json');
  expect(shutdownRequests(await readJson<InboxEntry[]>(inbox))).toMatchObject([{ read: false }]);
  await mailroomOk(dir.path, 'task', 'add', 'T2', '--metadata', 'command=echo hi');
  await mailroomOk(dir.path, 'team', 'spawn', 'dan', '--backend', 'process');

  const store = openFsStores(dir.path);
  await until(async () => (await store.team.readTask('demo', '1'))?.status === 'completed', 20_000, 'task #1 to be completed');
  expect((await store.team.readConfig('demo')).members.map((m) => m.name)).toEqual(['team-lead', 'dan']);
  const log = await readFile(join(dir.path, 'teams', 'demo', 'logs', 'dan.log'), 'utf8');
  expect(log).not.toContain('shutdown approved');
  expect(shutdownRequests(await readJson<InboxEntry[]>(inbox))).toMatchObject([{ read: true }]);
});

it('an in-process registration marks the earlier member’s shutdown_request read, and a new one still reaches it', async () => {
  await mailroomOk(dir.path, 'team', 'spawn', 'dan');
  const inbox = join(dir.path, 'teams', 'demo', 'inboxes', 'dan.json');
  expect(shutdownRequests(await readJson<InboxEntry[]>(inbox))).toMatchObject([{ read: true }]);

  const unread = await mailroom(dir.path, 'inbox', 'dan', '--unread', '--json');
  expect(unread.code, unread.stderr).toBe(0);
  expect(unread.stdout).not.toContain('shutdown_request');

  await requestShutdown({ root: openFsStores(dir.path), team: 'demo', to: 'dan' });
  const requests = shutdownRequests(await readJson<InboxEntry[]>(inbox));
  expect(requests).toHaveLength(2);
  expect(requests[1]).toMatchObject({ read: false });
});
