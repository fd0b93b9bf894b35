/**
 * Case 01 (../shared/cases/01-concurrent-send.md): team `t` with members team-lead, a…h; eight
 * separate OS processes each run `mailroom team send team-lead "<sender>-<n>" --from <sender>`
 * twenty times (n = 1..20), all at once.
 *
 * Each process runs its twenty sends through the CLI's entry `main()` (cli-batch) and all eight
 * meet at a barrier before every round, so each round is eight sends at the same moment.
 * Expected: team-lead.json holds exactly 160 entries; every (sender, n) pair appears once; each
 * sender's entries are in n order; every send that exited 0 is present.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCliBatch } from '../helpers/cli-batch.js';
import { readJson } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const SENDERS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const SENDS = 20;

let tmp: TempDir;
let root: string;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-case01-');
  root = join(tmp.path, 'root');
  const setup = await runCliBatch([['team', 'create', 't'], ...SENDERS.map((s) => ['team', 'spawn', s])].map((c) => ['--root', root, ...c]));
  expect(setup.map((r) => r.code)).toEqual(setup.map(() => 0));
});
afterAll(() => tmp.cleanup());

it('eight processes × twenty sends to one inbox: 160 entries, none lost, none doubled, each sender in order', async () => {
  const barrier = { dir: join(tmp.path, 'barrier'), parties: SENDERS.length };
  await mkdir(barrier.dir);
  const perSender = await Promise.all(
    SENDERS.map((s) =>
      runCliBatch(
        Array.from({ length: SENDS }, (_, i) => ['--root', root, 'team', 'send', 'team-lead', `${s}-${i + 1}`, '--from', s]),
        { barrier },
      ),
    ),
  );

  const exitedZero = perSender.flatMap((runs, si) => runs.flatMap((r, i) => (r.code === 0 ? [`${SENDERS[si]}-${i + 1}`] : [])));
  const failures = perSender.flat().filter((r) => r.code !== 0);
  expect(failures.map((r) => r.stderr)).toEqual([]);

  const inbox = await readJson<{ from: string; text: string; read: boolean }[]>(join(root, 'teams/t/inboxes/team-lead.json'));
  expect(inbox).toHaveLength(160);
  const texts = inbox.map((e) => e.text);
  expect(new Set(texts).size).toBe(160);
  expect(texts.sort()).toEqual(exitedZero.sort());
  for (const s of SENDERS) {
    const mine = inbox.filter((e) => e.from === s).map((e) => Number(e.text.split('-')[1]));
    expect(mine, `order of ${s}`).toEqual(Array.from({ length: SENDS }, (_, i) => i + 1));
  }
  for (const e of inbox) expect(e.text.startsWith(`${e.from}-`)).toBe(true);
  expect(await readdir(join(root, 'teams/t/inboxes'))).toEqual(['team-lead.json']);
});
