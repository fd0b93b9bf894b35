/**
 * An unlocked reader that catches a file mid-rewrite (a Claude Code 2.1.109 writer truncates its
 * inbox, then writes it: a watcher is woken by the truncation) re-reads it until it parses, for
 * 60 ms in all (REREAD_PAUSES_MS), and only then says FILE_CORRUPT — never overwriting it. The
 * bridge and every watcher of Claude Code's files read this way; how soon the first re-read comes
 * is a speed figure (bench 90-bridge, one message through idle bridges), not asserted here.
 */
import { truncateSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REREAD_PAUSES_MS, readJsonFile } from '../../../src/store/fs/json-file.js';
import { openFsStores } from '../../../src/store/open.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { MailroomError } from '../../../src/errors.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-torn-');
});
afterEach(() => tmp.cleanup());

const entry = (text: string) => ({ from: 'team-lead', text, timestamp: '2026-12-04T03:00:00.000Z', color: 'blue', read: false });
const full = JSON.stringify([entry('one'), entry('two')], null, 2);

/**
 * Rewrites `path` in place as Claude Code 2.1.109 does: truncated now (when this returns, a reader
 * finds it empty), written `afterMs` later. Resolves when the write has landed.
 */
function rewriteInPlace(path: string, text: string, afterMs: number): Promise<void> {
  truncateSync(path, 0);
  return new Promise((r) => setTimeout(r, afterMs)).then(() => writeFile(path, text));
}

async function corruptOf(p: Promise<unknown>): Promise<MailroomError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(MailroomError);
  return err as MailroomError;
}

describe('a file caught mid-rewrite', () => {
  it('waits 60 ms in all, the first re-read after 1 ms', () => {
    expect(REREAD_PAUSES_MS[0]).toBe(1);
    expect(REREAD_PAUSES_MS.reduce((a, b) => a + b, 0)).toBe(60);
  });

  for (const afterMs of [0, 3, 40]) {
    it(`is read whole when the write lands ${afterMs} ms after the truncation`, async () => {
      const path = join(tmp.path, 'observer.json');
      await writeFile(path, '[]');
      const writing = rewriteInPlace(path, full, afterMs);
      const read = await readJsonFile(path);
      await writing;
      expect(read).toMatchObject({ state: 'ok', value: [entry('one'), entry('two')] });
    });
  }

  it('is FILE_CORRUPT naming the file when it stays half-written, and is left as it was', async () => {
    const path = join(tmp.path, 'observer.json');
    const half = full.slice(0, full.length / 2);
    await writeFile(path, half);
    const started = performance.now();
    const err = await corruptOf(readJsonFile(path));
    expect(performance.now() - started).toBeGreaterThanOrEqual(55); // the whole window was given (a floor, not a speed figure)
    expect(err.code).toBe('FILE_CORRUPT');
    expect(err.message).toContain(path);
    expect(await readFile(path, 'utf8')).toBe(half);
  });

  it('reads once with attempts 1', async () => {
    const path = join(tmp.path, 'observer.json');
    await writeFile(path, '{"half":');
    expect((await corruptOf(readJsonFile(path, { attempts: 1 }))).code).toBe('FILE_CORRUPT');
  });

  it("through the store: a Claude Code inbox rewritten in place is read whole by readInbox", async () => {
    const root = tmp.path;
    const { team } = openFsStores(root);
    await team.createTeam({ name: 't', createdAt: 1, leadAgentId: 'team-lead@t', members: [{ agentId: 'team-lead@t', name: 'team-lead' }, { agentId: 'observer@t', name: 'observer' }] });
    const path = join(root, 'teams', 't', 'inboxes', 'observer.json');
    await mkdir(join(root, 'teams', 't', 'inboxes'), { recursive: true });
    await writeFile(path, JSON.stringify([entry('one')], null, 2));
    const writing = rewriteInPlace(path, full, 2);
    const read = await team.readInbox('t', 'observer');
    await writing;
    expect(read.map((e) => e.text)).toEqual(['one', 'two']);
  });
});
