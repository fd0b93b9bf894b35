/**
 * `mailroom log` prints in time order (issue 23): a message written straight into an inbox (as
 * Claude Code does) is journalled when mailroom next looks, after events that happened later; the
 * history still lists it at its own time, in text and in NDJSON.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-log-order-');
  await mailroomOk(tmp.path, 'team', 'create', 'demo');
  await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
  await mailroomOk(tmp.path, 'team', 'send', 'alice', 'first, through mailroom');
  await mailroomOk(tmp.path, 'log'); // journals everything up to now
  await mailroomOk(tmp.path, 'task', 'add', 'Later task');
  // An outside writer appends a message stamped before the task was added (and before the log above ran).
  const inbox = join(tmp.path, 'teams', 'demo', 'inboxes', 'alice.json');
  const entries = JSON.parse(await readFile(inbox, 'utf8')) as Array<Record<string, unknown>>;
  const early = new Date(Date.parse(entries[0]!.timestamp as string) + 1).toISOString();
  entries.push({ from: 'team-lead', text: 'written outside mailroom', timestamp: early, read: false });
  await writeFile(inbox, JSON.stringify(entries, null, 2));
});
afterAll(() => tmp.cleanup());

const sorted = (times: string[]) => [...times].sort((a, b) => Date.parse(a) - Date.parse(b));

it('lists a late-journalled message at its own time', async () => {
  const lines = (await mailroomOk(tmp.path, 'log')).stdout.trim().split('\n');
  const times = lines.map((l) => l.slice(0, 24));
  expect(times).toEqual(sorted(times));
  const outside = lines.findIndex((l) => l.includes('written outside mailroom'));
  const task = lines.findIndex((l) => l.includes('Later task'));
  expect(outside).toBeGreaterThan(-1);
  expect(outside).toBeLessThan(task);
});

it('--json is in time order too', async () => {
  const events = (await mailroomOk(tmp.path, 'log', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l) as { at: string; kind: string; entry?: { timestamp: string } });
  const times = events.map((e) => (e.kind === 'message' ? e.entry!.timestamp : e.at));
  expect(times).toEqual(sorted(times));
});
