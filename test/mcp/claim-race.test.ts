/**
 * Two MCP members race to claim the same tasks (case 06): for every task exactly one claim wins and
 * the other gets a TASK_ALREADY_CLAIMED tool error with reason already_claimed. Claiming "the next
 * ready task" never hands one task to both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTask, createTeam, getTask } from '../../src/index.js';
import { dataOf, errorOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

const ROUNDS = 8;

describe('mailroom mcp: two members racing for tasks', () => {
  let dir: TempDir;
  let alice: McpMember;
  let bob: McpMember;

  beforeAll(async () => {
    dir = await makeTempDir('mailroom-mcp-race-');
    await createTeam({ root: openFsStores(dir.path), team: 'race' });
    const started = await Promise.all(['alice', 'bob'].map((as) => startMcpMember(['--root', dir.path, '--team', 'race', '--as', as])));
    alice = started[0]!;
    bob = started[1]!;
  });
  afterAll(async () => {
    await Promise.all([alice?.close(), bob?.close()]);
    await dir?.cleanup();
  });

  it('exactly one of two simultaneous claims of one id wins, every time', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { id } = await addTask({ root: openFsStores(dir.path), team: 'race', subject: `Task ${round}` });
      const results = await Promise.all([alice, bob].map((m) => m.call('task_claim', { id })));
      const winners = results.filter((r) => !r.isError);
      expect(winners).toHaveLength(1);
      const loser = errorOf(results.find((r) => r.isError)!);
      expect(loser.code).toBe('TASK_ALREADY_CLAIMED');
      expect(loser.message).toContain('already_claimed');
      const winner = dataOf<{ task: { owner: string } }>(winners[0]!).task.owner;
      expect(loser.details).toMatchObject({ reason: 'already_claimed', owner: winner });
      expect((await getTask({ root: openFsStores(dir.path), team: 'race', id })).task).toMatchObject({ owner: winner, status: 'in_progress' });
    }
  });

  it('claiming the next ready task hands each task to one member only', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await addTask({ root: openFsStores(dir.path), team: 'race', subject: `Next ${i}` })).id);
    const calls = [alice, bob, alice, bob].map((m) => m.call('task_claim'));
    const results = await Promise.all(calls);
    const claimed = results.filter((r) => !r.isError).map((r) => dataOf<{ task: { id: string } }>(r).task.id);
    expect(claimed.sort()).toEqual([...ids].sort());
    expect(results.filter((r) => r.isError).map((r) => errorOf(r).code)).toEqual(['NO_READY_TASK']);
  });
});
