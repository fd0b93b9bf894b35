/**
 * A take on the filesystem looks at the inbox without a lock, then reads it again under the lease
 * sidecar's lock; the second read does not parse the file again when its text is the one the look
 * saw (src/store/fs/inboxes.ts `lookAtInbox`, issue 24). What the take hands out is what the file
 * says under the lock: an entry marked read since the look (Claude Code marks read by rewriting the
 * inbox; it never takes the sidecar's lock) is not handed out, and an entry appended since is.
 * The sidecar's lock is held by the test (as another taker would hold it) while the file changes.
 */
import { mkdirSync, renameSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../../src/store/open.js';
import { Layout, lockDirFor } from '../../../src/store/fs/paths.js';
import type { Stores } from '../../../src/store/selection.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let tmp: TempDir;
let stores: Stores;
let layout: Layout;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-take-look-');
  stores = openFsStores(tmp.path);
  layout = new Layout(tmp.path);
  await stores.team.createTeam({ name: 't', createdAt: 1, leadAgentId: 'team-lead@t', members: [{ agentId: 'team-lead@t', name: 'team-lead' }, { agentId: 'alice@t', name: 'alice' }] });
});
afterEach(() => tmp.cleanup());

const entry = (id: string, read: boolean) => ({ from: 'team-lead', text: `message ${id}`, timestamp: `2026-12-07T14:00:0${id}.000Z`, color: 'blue', msg_id: id, read });

/** Replaces alice's inbox as Claude Code does: a whole new file renamed into place, without mailroom's locks. */
function rewriteInbox(entries: object[]): void {
  const path = layout.inboxPath('t', 'alice');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.cc-tmp`, JSON.stringify(entries, null, 2));
  renameSync(`${path}.cc-tmp`, path);
}

/** Starts a take while the sidecar's lock is held, lets it look, runs `change`, then frees the lock. @returns what the take handed out (msg_ids) */
async function takeAcross(change: () => void): Promise<string[]> {
  const lockDir = lockDirFor(layout.leasePath('t', 'alice'));
  mkdirSync(dirname(lockDir), { recursive: true });
  mkdirSync(lockDir);
  const take = stores.team.takeUnread('t', 'alice', { reader: 'r1' });
  // The look is synchronous I/O behind promise hops: done before the event loop turns; the lock is then waited for.
  await new Promise((r) => setImmediate(r));
  change();
  rmdirSync(lockDir);
  return (await take).value.entries.map((e) => e.msg_id!);
}

describe('a take reads the inbox again under the sidecar lock', () => {
  it('hands out nothing that was marked read after its look', async () => {
    rewriteInbox([entry('1', false)]);
    expect(await takeAcross(() => rewriteInbox([entry('1', true)]))).toEqual([]);
    expect((await stores.team.takeUnread('t', 'alice', { reader: 'r1' })).value.entries).toEqual([]);
  });

  it('hands out what was appended after its look, with what it saw', async () => {
    rewriteInbox([entry('1', false)]);
    expect(await takeAcross(() => rewriteInbox([entry('1', false), entry('2', false)]))).toEqual(['1', '2']);
  });

  it('hands out what it saw when nothing changed (the look reused), once', async () => {
    rewriteInbox([entry('1', false), entry('2', true), entry('3', false)]);
    expect(await takeAcross(() => undefined)).toEqual(['1', '3']);
    expect((await stores.team.takeUnread('t', 'alice', { reader: 'r2' })).value.entries).toEqual([]);
  });
});
