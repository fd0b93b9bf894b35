/**
 * Combined appends (src/store/fs/inbox-spool.ts): an append that finds the inbox lock taken spools
 * its entries, and whoever appends next under the lock appends every spooled batch with its own.
 */
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMailroomError } from '../../../src/errors.js';
import { makeInboxEntry } from '../../../src/protocol/inbox.js';
import { FsTeamStore } from '../../../src/store/fs/team-store.js';
import { spoolDirFor } from '../../../src/store/fs/inbox-spool.js';
import { acquireLock } from '../../../src/store/fs/lock.js';
import { Layout } from '../../../src/store/fs/paths.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { makeTeam } from '../../helpers/team-setup.js';

let tmp: TempDir;
let store: FsTeamStore;
let inbox: string;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-spool-');
  await makeTeam(tmp.path, 't', ['a']);
  store = new FsTeamStore(tmp.path);
  inbox = new Layout(tmp.path).inboxPath('t', 'team-lead');
  await send(store, 'first');
});

/** Appends one message to the lead's inbox; @returns the entry as stored. */
async function send(to: FsTeamStore, text: string) {
  const { value } = await to.appendMessages('t', [{ to: 'team-lead', entry: entry(text) }]);
  return value.messages[0]!.entry;
}
afterEach(() => tmp.cleanup());

const entry = (text: string) => makeInboxEntry({ from: 'a', text, timestamp: new Date().toISOString(), msgId: `id-${text}` });
const texts = async () => (JSON.parse(await readFile(inbox, 'utf8')) as Array<{ text: string }>).map((e) => e.text);
const spooled = async () => (await readdir(spoolDirFor(inbox)).catch(() => [])).length;

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 2));
}

describe('appends while the inbox lock is taken', () => {
  it('are spooled, then appended together once the lock is free, each exactly once, leaving no spool', async () => {
    const held = await acquireLock(inbox, `${inbox}.lock`);
    const waiting = [send(store, 'w1'), send(store, 'w2')];
    await until(async () => (await spooled()) === 2);
    expect(await texts()).toEqual(['first']);
    await held.release();
    await Promise.all(waiting);
    expect((await texts()).sort()).toEqual(['first', 'w1', 'w2']);
    await expect(readdir(join(inbox, '..', '.spool'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('are appended by the next holder: a waiter whose batch it appended resolves without taking the lock', async () => {
    const held = await acquireLock(inbox, `${inbox}.lock`);
    const acquired: number[] = [];
    const counting = new FsTeamStore(tmp.path, { onAcquired: (i) => acquired.push(i.waitMs) });
    const waiter = send(counting, 'spooled');
    await until(async () => (await spooled()) === 1);
    await held.release();
    await send(store, 'holder');
    await waiter;
    expect(await texts()).toEqual(['first', 'spooled', 'holder']);
    expect(acquired).toHaveLength(1); // its wait, reported once
  });

  it('a waiter whose batch another holder appended returns its entries as stored and the events journalled for them (its receipt)', async () => {
    const held = await acquireLock(inbox, `${inbox}.lock`);
    const early = makeInboxEntry({ from: 'a', text: 'early', timestamp: '2020-01-01T00:00:00.000Z', msgId: 'id-early' });
    const waiter = store.appendMessages('t', [{ to: 'team-lead', entry: early }], { actor: 'a', now: 1_767_225_600_000 });
    await until(async () => (await spooled()) === 1);
    await held.release();
    await send(store, 'holder');
    const { value, events } = await waiter;
    const inFile = (JSON.parse(await readFile(inbox, 'utf8')) as Array<{ msg_id: string; timestamp: string }>).find((e) => e.msg_id === 'id-early')!;
    expect(value.messages[0]!.entry.timestamp).toBe(inFile.timestamp);
    expect(inFile.timestamp).not.toBe('2020-01-01T00:00:00.000Z'); // moved after the entry before it (timestamps never decrease)
    const journalled = (await store.readEvents('t')).events.filter((e) => e.kind === 'message' && e.entry.msg_id === 'id-early');
    expect(journalled).toEqual(events);
    expect(events).toMatchObject([{ kind: 'message', to: 'team-lead', actor: 'a', at: '2026-01-01T00:00:00.000Z', entry: { msg_id: 'id-early', timestamp: inFile.timestamp } }]);
    await expect(readdir(join(inbox, '..', '.spool'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('time out with LOCK_TIMEOUT and take their batch back: nothing appended later', async () => {
    const held = await acquireLock(inbox, `${inbox}.lock`);
    const impatient = new FsTeamStore(tmp.path, { waitMs: 150 });
    const err = await send(impatient, 'late').catch((e: unknown) => e);
    expect(isMailroomError(err, 'LOCK_TIMEOUT')).toBe(true);
    expect(await spooled()).toBe(0);
    await held.release();
    await send(store, 'next');
    expect(await texts()).toEqual(['first', 'next']);
  });

  it('a batch left behind after its entries were appended (holder killed before the clean-up) is not appended twice', async () => {
    await mkdir(spoolDirFor(inbox), { recursive: true });
    await writeFile(join(spoolDirFor(inbox), '000000000000001-1-000000-x.json'), JSON.stringify([entry('first')]));
    await send(store, 'second');
    expect(await texts()).toEqual(['first', 'second']);
    expect(await spooled()).toBe(0);
  });
});
