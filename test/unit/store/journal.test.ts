import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsStore } from '../../../src/store/fs-store.js';
import type { JournalEvent } from '../../../src/protocol/journal.js';
import { startChild } from '../../helpers/child.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const CHILD = fileURLToPath(new URL('../../helpers/journal-child.mjs', import.meta.url));

function message(i: number, text = `hello ${i}`): JournalEvent {
  return {
    v: 1,
    team: 'demo',
    at: '2026-03-01T12:00:00.000Z',
    source: 'mailroom',
    kind: 'message',
    to: 'alice',
    entry: { from: 'team-lead', text, timestamp: new Date(1_772_366_400_000 + i).toISOString(), read: false },
  };
}

describe('FsStore journal', () => {
  let dir: TempDir;
  let store: FsStore;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = new FsStore(dir.path);
  });
  afterEach(() => dir.cleanup());

  it('lives in <root>/mailroom/journal/<team>.ndjson, one line per event, mode 0600', async () => {
    await store.appendJournal('demo', [message(1), message(2)]);
    const path = `${dir.path}/mailroom/journal/demo.ndjson`;
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[0]!.startsWith('{"v":1,')).toBe(true);
    expect(JSON.parse(lines[1]!).entry.text).toBe('hello 2');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('reads a missing journal as empty', async () => {
    expect(await store.readJournal('nobody')).toEqual({ events: [], cursor: 0, reset: false });
  });

  it('reads incrementally from a cursor and leaves an unfinished last line for later', async () => {
    await store.appendJournal('demo', [message(1)]);
    const first = await store.readJournal('demo');
    expect(first.events.map((e) => e.kind === 'message' && e.entry.text)).toEqual(['hello 1']);
    const path = store.layout.journalPath('demo');
    const line = JSON.stringify(message(2));
    await appendFile(path, line.slice(0, 20));
    const partial = await store.readJournal('demo', { since: first.cursor });
    expect(partial.events).toEqual([]);
    expect(partial.cursor).toBe(first.cursor);
    await appendFile(path, `${line.slice(20)}\n`);
    const rest = await store.readJournal('demo', { since: partial.cursor });
    expect(rest.events.map((e) => e.kind === 'message' && e.entry.text)).toEqual(['hello 2']);
  });

  it('skips torn and foreign lines, and recovers an event glued behind a torn one', async () => {
    const path = store.layout.journalPath('demo');
    await store.appendJournal('demo', [message(1)]);
    await appendFile(path, '{"v":1,"team":"demo","at":"2026-03-0');
    await store.appendJournal('demo', [message(2)]);
    await appendFile(path, 'not json\n{"v":2,"kind":"message"}\n');
    await store.appendJournal('demo', [message(3)]);
    const read = await store.readJournal('demo');
    expect(read.events.map((e) => e.kind === 'message' && e.entry.text)).toEqual(['hello 1', 'hello 2', 'hello 3']);
  });

  it('restarts from the beginning when the journal was replaced by a shorter file', async () => {
    await store.appendJournal('demo', [message(1), message(2)]);
    const { cursor } = await store.readJournal('demo');
    await writeFile(store.layout.journalPath('demo'), `${JSON.stringify(message(9))}\n`);
    const read = await store.readJournal('demo', { since: cursor });
    expect(read.reset).toBe(true);
    expect(read.events.map((e) => e.kind === 'message' && e.entry.text)).toEqual(['hello 9']);
  });

  it('keeps a long message (larger than one write chunk) intact', async () => {
    const long = 'y'.repeat(200_000);
    await store.appendJournal('demo', [message(1), message(2, long), message(3)]);
    const read = await store.readJournal('demo');
    expect(read.events.map((e) => (e.kind === 'message' ? e.entry.text.length : 0))).toEqual([7, 200_000, 7]);
  });

  it('loses and tears no line when four processes append at once', async () => {
    const children = ['p1', 'p2', 'p3', 'p4'].map((who) => startChild(CHILD, [dir.path, 'demo', who, '300', '7', '900']));
    expect(await Promise.all(children.map((c) => c.exited))).toEqual([0, 0, 0, 0]);
    const text = await readFile(store.layout.journalPath('demo'), 'utf8');
    const lines = text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(1200);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const read = await store.readJournal('demo');
    for (const who of ['p1', 'p2', 'p3', 'p4']) {
      const mine = read.events.flatMap((e) => (e.kind === 'message' && e.entry.from === who ? [e.entry.text.split(' ')[0]] : []));
      expect(mine).toEqual(Array.from({ length: 300 }, (_, i) => `${who}-${i}`));
    }
  });
});
