/**
 * Combined appends (src/store/fs/inbox-spool.ts): an append that finds the inbox lock taken spools
 * its entries, and whoever appends next under the lock appends every spooled batch with its own.
 */
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMailroomError } from '../../../src/errors.js';
import { makeInboxEntry } from '../../../src/protocol/inbox.js';
import { FsStore } from '../../../src/store/fs-store.js';
import { spoolDirFor } from '../../../src/store/fs/inbox-spool.js';
import { acquireLock } from '../../../src/store/lock.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { makeTeam } from '../../helpers/team-setup.js';

let tmp: TempDir;
let store: FsStore;
let inbox: string;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-spool-');
  await makeTeam(tmp.path, 't', ['a']);
  store = new FsStore(tmp.path);
  inbox = store.layout.inboxPath('t', 'team-lead');
  await store.appendToInbox('t', 'team-lead', [entry('first')]);
});
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
    const waiting = [store.appendToInbox('t', 'team-lead', [entry('w1')]), store.appendToInbox('t', 'team-lead', [entry('w2')])];
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
    const counting = new FsStore(tmp.path, { onAcquired: (i) => acquired.push(i.waitMs) });
    const waiter = counting.appendToInbox('t', 'team-lead', [entry('spooled')]);
    await until(async () => (await spooled()) === 1);
    await held.release();
    await store.appendToInbox('t', 'team-lead', [entry('holder')]);
    await waiter;
    expect(await texts()).toEqual(['first', 'spooled', 'holder']);
    expect(acquired).toHaveLength(1); // its wait, reported once
  });

  it('time out with LOCK_TIMEOUT and take their batch back: nothing appended later', async () => {
    const held = await acquireLock(inbox, `${inbox}.lock`);
    const impatient = new FsStore(tmp.path, { waitMs: 150 });
    const err = await impatient.appendToInbox('t', 'team-lead', [entry('late')]).catch((e: unknown) => e);
    expect(isMailroomError(err, 'LOCK_TIMEOUT')).toBe(true);
    expect(await spooled()).toBe(0);
    await held.release();
    await store.appendToInbox('t', 'team-lead', [entry('next')]);
    expect(await texts()).toEqual(['first', 'next']);
  });

  it('a batch left behind after its entries were appended (holder killed before the clean-up) is not appended twice', async () => {
    await mkdir(spoolDirFor(inbox), { recursive: true });
    await writeFile(join(spoolDirFor(inbox), '000000000000001-1-000000-x.json'), JSON.stringify([entry('first')]));
    await store.appendToInbox('t', 'team-lead', [entry('second')]);
    expect(await texts()).toEqual(['first', 'second']);
    expect(await spooled()).toBe(0);
  });
});
