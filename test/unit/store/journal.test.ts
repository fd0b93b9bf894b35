import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../../src/store/open.js';
import { Layout } from '../../../src/store/fs/paths.js';
import type { TeamStore } from '../../../src/store/team-store.js';
import type { TeamEventRecord } from '../../../src/protocol/events.js';
import { startChild } from '../../helpers/child.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const CHILD = fileURLToPath(new URL('../../helpers/journal-child.mjs', import.meta.url));

/** A version-1 line, as mailroom ≤ 0.1 wrote them: still read. */
function message(i: number, text = `hello ${i}`): TeamEventRecord {
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

describe('filesystem journal', () => {
  let dir: TempDir;
  let store: TeamStore;
  let layout: Layout;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = openFsStores(dir.path).team;
    layout = new Layout(dir.path);
  });
  afterEach(() => dir.cleanup());

  it('lives in <root>/mailroom/journal/<team>.ndjson, one line per event, mode 0600', async () => {
    await store.recordObserved('demo', [message(1), message(2)]);
    const path = `${dir.path}/mailroom/journal/demo.ndjson`;
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[0]!.startsWith('{"v":1,')).toBe(true);
    expect(JSON.parse(lines[1]!).entry.text).toBe('hello 2');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('reads a missing journal as empty', async () => {
    const read = await store.readEvents('nobody');
    expect(read.events).toEqual([]);
    expect(read.reset).toBe(false);
  });

  it('reads incrementally from a cursor and leaves an unfinished last line for later', async () => {
    await store.recordObserved('demo', [message(1)]);
    const first = await store.readEvents('demo');
    expect(first.events.map((e) => e.kind === 'message' && e.entry.text)).toEqual(['hello 1']);
    const path = layout.journalPath('demo');
    const line = JSON.stringify(message(2));
    await appendFile(path, line.slice(0, 20));
    const partial = await store.readEvents('demo', { since: first.cursor });
    expect(partial.events).toEqual([]);
    expect(partial.cursor).toBe(first.cursor);
    await appendFile(path, `${line.slice(20)}\n`);
    const rest = await store.readEvents('demo', { since: partial.cursor });
    expect(rest.events.map((e) => e.kind === 'message' && e.entry.text)).toEqual(['hello 2']);
  });

  it('skips torn and foreign lines, and recovers an event glued behind a torn one', async () => {
    const path = layout.journalPath('demo');
    await store.recordObserved('demo', [message(1)]);
    await appendFile(path, '{"v":1,"team":"demo","at":"2026-03-0');
    await store.recordObserved('demo', [message(2)]);
    await appendFile(path, 'not json\n{"v":2,"kind":"message"}\n');
    await store.recordObserved('demo', [message(3)]);
    const read = await store.readEvents('demo');
    expect(read.events.map((e) => e.kind === 'message' && e.entry.text)).toEqual(['hello 1', 'hello 2', 'hello 3']);
  });

  it('reads version-2 events and version-1 lines of one file in order, and skips versions it does not support (5: version 3 added refused and settings events, 4 lease events)', async () => {
    await store.recordObserved('demo', [message(1)]);
    await store.recordObserved('demo', [{ ...message(2), v: 2, actor: 'bob' }]);
    await appendFile(layout.journalPath('demo'), `${JSON.stringify({ ...message(3), v: 5 })}\n`);
    const read = await store.readEvents('demo');
    expect(read.events.map((e) => [e.v, e.kind === 'message' && e.entry.text, e.actor])).toEqual([
      [1, 'hello 1', undefined],
      [2, 'hello 2', 'bob'],
    ]);
  });

  it('restarts from the beginning when the journal was moved away and started again', async () => {
    await store.recordObserved('demo', [message(1), message(2)]);
    const { cursor } = await store.readEvents('demo');
    await writeFile(`${layout.journalPath('demo')}.new`, `${JSON.stringify(message(9))}\n${JSON.stringify(message(10))}\n${JSON.stringify(message(11))}\n`);
    const { rename } = await import('node:fs/promises');
    await rename(`${layout.journalPath('demo')}.new`, layout.journalPath('demo'));
    const read = await store.readEvents('demo', { since: cursor });
    expect(read.reset).toBe(true);
    expect(read.events.map((e) => e.kind === 'message' && e.entry.text)).toEqual(['hello 9', 'hello 10', 'hello 11']);
  });

  it('restarts from the beginning when the journal was replaced by a shorter file', async () => {
    await store.recordObserved('demo', [message(1), message(2)]);
    const { cursor } = await store.readEvents('demo');
    await writeFile(layout.journalPath('demo'), `${JSON.stringify(message(9))}\n`);
    const read = await store.readEvents('demo', { since: cursor });
    expect(read.reset).toBe(true);
    expect(read.events.map((e) => e.kind === 'message' && e.entry.text)).toEqual(['hello 9']);
  });

  it('keeps a long message (larger than one write chunk) intact', async () => {
    const long = 'y'.repeat(200_000);
    await store.recordObserved('demo', [message(1), message(2, long), message(3)]);
    const read = await store.readEvents('demo');
    expect(read.events.map((e) => (e.kind === 'message' ? e.entry.text.length : 0))).toEqual([7, 200_000, 7]);
  });

  it('loses and tears no line when four processes append at once', async () => {
    const children = ['p1', 'p2', 'p3', 'p4'].map((who) => startChild(CHILD, [dir.path, 'demo', who, '300', '7', '900']));
    expect(await Promise.all(children.map((c) => c.exited))).toEqual([0, 0, 0, 0]);
    const text = await readFile(layout.journalPath('demo'), 'utf8');
    const lines = text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(1200);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const read = await store.readEvents('demo');
    for (const who of ['p1', 'p2', 'p3', 'p4']) {
      const mine = read.events.flatMap((e) => (e.kind === 'message' && e.entry.from === who ? [e.entry.text.split(' ')[0]] : []));
      expect(mine).toEqual(Array.from({ length: 300 }, (_, i) => `${who}-${i}`));
    }
  });
});
