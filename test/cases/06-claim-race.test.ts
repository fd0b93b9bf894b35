/**
 * Case 06 (../shared/cases/06-claim-race.md): task N is pending and unowned; three processes run
 * `mailroom task claim N --as <name>` at the same moment (a, b, c); repeated for 50 fresh tasks.
 * Expected: exactly one claim per task succeeds, the task's owner is that claimant with status
 * in_progress; the other two exit non-zero with reason already_claimed (TASK_ALREADY_CLAIMED).
 * Same for `task claim --next`: no task is handed to two claimants.
 *
 * Three processes run the claims through the CLI's entry `main()` (cli-batch) and meet at a
 * barrier before each task, so every task is claimed by all three at the same moment.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliRun } from '../helpers/cli.js';
import { runCliBatch } from '../helpers/cli-batch.js';
import { readJson } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const CLAIMANTS = ['a', 'b', 'c'];
const TASKS = 50;

let tmp: TempDir;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-case06-');
});
afterAll(() => tmp.cleanup());

/** A fresh root with team `t`, members a, b, c and 50 pending unowned tasks. */
async function board(name: string): Promise<string> {
  const root = join(tmp.path, name);
  const setup = await runCliBatch(
    [['team', 'create', 't'], ...CLAIMANTS.map((c) => ['team', 'spawn', c]), ...Array.from({ length: TASKS }, (_, i) => ['task', 'add', `job ${i + 1}`])].map((c) => [
      '--root',
      root,
      ...c,
    ]),
  );
  expect(setup.filter((r) => r.code !== 0)).toEqual([]);
  return root;
}

/** Runs `commands(claimant)` in one process per claimant, all meeting at a barrier before each command. */
async function race(root: string, commands: (claimant: string) => string[][]): Promise<CliRun[][]> {
  const barrier = { dir: join(root, '..', `barrier-${Date.now()}`), parties: CLAIMANTS.length };
  await mkdir(barrier.dir);
  return Promise.all(CLAIMANTS.map((c) => runCliBatch(commands(c).map((cmd) => ['--root', root, ...cmd]), { barrier })));
}

function errorOf(run: CliRun): { code: string; details: Record<string, unknown> } {
  return (JSON.parse(run.stderr) as { error: { code: string; details: Record<string, unknown> } }).error;
}

describe('task claim <id> by three processes at once, 50 tasks', () => {
  it('gives each task to exactly one claimant; the others get already_claimed', async () => {
    const root = await board('by-id');
    const runs = await race(root, (as) => Array.from({ length: TASKS }, (_, i) => ['task', 'claim', String(i + 1), '--as', as, '--json']));
    for (let i = 0; i < TASKS; i++) {
      const id = String(i + 1);
      const attempts = runs.map((r) => r[i]!);
      const winners = CLAIMANTS.filter((_, k) => attempts[k]!.code === 0);
      expect(winners, `task ${id}`).toHaveLength(1);
      const losers = attempts.filter((r) => r.code !== 0);
      for (const l of losers) {
        expect(l.code).toBe(5);
        expect(errorOf(l)).toMatchObject({ code: 'TASK_ALREADY_CLAIMED', details: { reason: 'already_claimed', id, owner: winners[0] } });
      }
      const file = await readJson<{ owner: string; status: string }>(join(root, `tasks/t/${id}.json`));
      expect(file).toMatchObject({ owner: winners[0], status: 'in_progress' });
    }
  });
});

describe('task claim --next by three processes at once', () => {
  it('hands out every task exactly once, to the claimant its file names', async () => {
    const root = await board('next');
    // Every round each process claims once and every claim succeeds while a task is ready, so
    // ceil(50 / 3) = 17 rounds hand out the board and one more round finds it empty.
    const rounds = Math.ceil(TASKS / CLAIMANTS.length) + 1;
    const runs = await race(root, (as) => Array.from({ length: rounds }, () => ['task', 'claim', '--next', '--as', as, '--json']));
    const won = new Map<string, string>();
    runs.forEach((mine, k) => {
      for (const r of mine) {
        if (r.code !== 0) {
          expect(r.code).toBe(3);
          expect(errorOf(r).code).toBe('NO_READY_TASK');
          continue;
        }
        const { id } = JSON.parse(r.stdout) as { id: string };
        expect(won.has(id), `task ${id} handed out twice`).toBe(false);
        won.set(id, CLAIMANTS[k]!);
      }
    });
    expect([...won.keys()].map(Number).sort((x, y) => x - y)).toEqual(Array.from({ length: TASKS }, (_, i) => i + 1));
    for (const [id, claimant] of won) {
      expect(await readJson(join(root, `tasks/t/${id}.json`))).toMatchObject({ owner: claimant, status: 'in_progress' });
    }
    // Once the board is empty every further claim is refused, and only then.
    expect(runs.flat().filter((r) => r.code === 3)).toHaveLength(CLAIMANTS.length * rounds - TASKS);
    expect(runs.map((mine) => mine.at(-1)!.code)).toEqual([3, 3, 3]);
  });
});
