/**
 * `team send --wait read` (waitForState) reports the read's time when a mailroom reader journals
 * it. A reader marks the entry read in its inbox and journals `delivery read` right after; a wait
 * that looked between the two returned `read: true` (time unknown) — seen in a full suite run
 * (test/e2e/delivery-states.test.ts, two test files at once). The moment between the inbox write
 * and the journal line is made here with real files: the inbox entry flagged read as the reader's
 * rename leaves it, the journal line appended by the store after the wait began.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitForState } from '../../../src/core/messages/delivery-status.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { deliveryEvent } from '../../../src/domain/events.js';
import { entryKey } from '../../../src/domain/entries.js';
import type { InboxEntry } from '../../../src/protocol/inbox.js';
import { openFsStores } from '../../../src/store/open.js';
import type { Stores } from '../../../src/store/selection.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
let root: Stores;
const team = 'demo';
beforeEach(async () => {
  dir = await makeTempDir();
  root = openFsStores(dir.path);
  await createTeam({ root, team });
  await spawnMember({ root, team, name: 'bob', cwd: dir.path });
});
afterEach(async () => dir.cleanup());

/** Flags bob's entries read in his inbox file, as a reader's rename (or Claude Code) leaves them. */
async function flagRead(): Promise<InboxEntry> {
  const path = join(dir.path, 'teams', team, 'inboxes', 'bob.json');
  const entries = JSON.parse(await readFile(path, 'utf8')) as InboxEntry[];
  for (const e of entries) e.read = true;
  await writeFile(path, JSON.stringify(entries, null, 2));
  return entries[0]!;
}

describe('waiting for "read"', () => {
  it('reports the time a mailroom reader journals right after its inbox write', async () => {
    const sent = await sendMessage({ root, team, from: 'team-lead', to: 'bob', text: 'hi' });
    const msgId = sent.entry.msg_id!;
    const lease = await root.team.takeUnread(team, 'bob', { reader: 'bob-reader' });
    expect(lease.value.entries).toHaveLength(1); // journalled `delivery delivered`
    const entry = await flagRead();
    const readAt = Date.now() + 150;
    const waiting = waitForState({ root, team, msgId, state: 'read', timeoutMs: 10_000 });
    setTimeout(() => void root.team.recordObserved(team, [deliveryEvent({ team, at: readAt, source: 'mailroom' }, 'bob', entryKey(entry), 'read', lease.value.id)]), 150);
    const status = await waiting;
    expect(status.state).toBe('read');
    expect(status.at.read).toBe(new Date(readAt).toISOString());
  });

  it('a reader that journals nothing (Claude Code flags the entry): read, time unknown', async () => {
    const sent = await sendMessage({ root, team, from: 'team-lead', to: 'bob', text: 'hi' });
    await flagRead();
    const status = await waitForState({ root, team, msgId: sent.entry.msg_id!, state: 'read', timeoutMs: 10_000 });
    expect(status).toMatchObject({ state: 'read', at: { delivered: true, read: true } });
  });
});
