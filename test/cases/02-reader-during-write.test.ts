/**
 * Case 02 (../shared/cases/02-reader-during-write.md): while five members are spawned into team
 * `t` and 200 messages are sent by four processes, a separate process reads and JSON-parses
 * config.json and every inbox file every 10 ms.
 * Expected: 0 parse failures, 0 empty reads of a file that existed before.
 *
 * The spawns and the sends run through the CLI's entry `main()` (cli-batch: one process spawning,
 * four processes sending 50 each); the reader is read-loop.mjs, which locks nothing.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startChild } from '../helpers/child.js';
import { runCliBatch } from '../helpers/cli-batch.js';
import { readJson } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const READER = fileURLToPath(new URL('../helpers/read-loop.mjs', import.meta.url));
const RECIPIENTS = ['team-lead', 'alice', 'bob'];

let tmp: TempDir;
let root: string;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-case02-');
  root = join(tmp.path, 'root');
  const setup = await runCliBatch([['team', 'create', 't'], ['team', 'spawn', 'alice'], ['team', 'spawn', 'bob']].map((c) => ['--root', root, ...c]));
  expect(setup.map((r) => r.code)).toEqual([0, 0, 0]);
});
afterAll(() => tmp.cleanup());

it('a reader polling every 10 ms never sees a torn, empty or vanished file while 5 spawns and 200 sends run', async () => {
  const stopFile = join(tmp.path, 'stop');
  const reader = startChild(READER, [join(root, 'teams/t'), stopFile, '10']);
  await reader.waitForLine('started');

  const at = (c: string[]) => ['--root', root, ...c];
  const spawns = runCliBatch(Array.from({ length: 5 }, (_, i) => at(['team', 'spawn', `m${i + 1}`, '--prompt', `You are m${i + 1}.`])));
  const senders = Array.from({ length: 4 }, (_, p) =>
    runCliBatch(Array.from({ length: 50 }, (_, i) => at(['team', 'send', RECIPIENTS[i % 3]!, `p${p}-${i}`]))),
  );
  const runs = (await Promise.all([spawns, ...senders])).flat();
  await writeFile(stopFile, '');
  await reader.exited;
  const stats = JSON.parse(reader.stdout().trim().split('\n').at(-1)!) as {
    rounds: number;
    reads: number;
    parseFailures: number;
    failures: string[];
    emptyReads: number;
    vanished: number;
    sizes: Record<string, number>;
  };

  expect(runs.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);
  expect(stats.failures).toEqual([]);
  expect(stats.parseFailures).toBe(0);
  expect(stats.emptyReads).toBe(0);
  expect(stats.vanished).toBe(0);
  // The reader really ran during the writes: it saw the lead's inbox at several lengths.
  expect(stats.sizes[join(root, 'teams/t/inboxes/team-lead.json')]).toBeGreaterThan(2);

  const config = await readJson<{ members: { name: string }[] }>(join(root, 'teams/t/config.json'));
  expect(config.members.map((m) => m.name).sort()).toEqual(['alice', 'bob', 'm1', 'm2', 'm3', 'm4', 'm5', 'team-lead']);
  let total = 0;
  for (const name of ['team-lead', 'alice', 'bob', 'm1', 'm2', 'm3', 'm4', 'm5']) {
    total += (await readJson<unknown[]>(join(root, `teams/t/inboxes/${name}.json`))).length;
  }
  expect(total).toBe(205);
});
