/**
 * Torture on the Redis store: child processes append to one inbox and race for claims while some
 * are SIGKILLed and started again. Pass: 0 acknowledged appends lost, 0 duplicated (a restarted
 * writer resends its unacknowledged batch with the same idempotency key), exactly one winner per
 * claim (one owner per task, one claim event per task, every acknowledged claim holds).
 * Six children at most: the machine has two cores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamConfig } from '../../src/protocol/config.js';
import { openRedisTeamStore, type RedisTeamStore } from '../../src/store/redis/index.js';
import { startChild, type Child } from '../helpers/child.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

const CHILD = new URL('../helpers/redis-child.mjs', import.meta.url).pathname;
const PER_WRITER = 300;
const TASKS = 60;

let server: RedisServer;
let store: RedisTeamStore;
beforeAll(async () => {
  server = await startRedis();
  store = await openRedisTeamStore({ kind: 'redis', url: server.url, hostRoot: '/nonexistent' });
});
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

/** The last n a child acknowledged ("ack <n>"), or from - 1. */
function lastAck(child: Child, from: number): number {
  const acks = child.stdout().split('\n').flatMap((l) => (l.startsWith('ack ') ? [Number(l.slice(4))] : []));
  return acks.length ? Math.max(...acks) : from - 1;
}

/** Resolves at the child's first stdout line starting with `prefix`. */
function firstLine(child: Child, prefix: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!child.stdout().split('\n').some((l) => l.startsWith(prefix))) return;
      child.proc.stdout?.off('data', check);
      resolve();
    };
    child.proc.stdout?.on('data', check);
    void child.exited.then(() => reject(new Error(`child exited before printing "${prefix}…": ${child.stderr()}`)));
    check();
  });
}

function claimsOf(child: Child): string[] {
  return child.stdout().split('\n').flatMap((l) => (l.startsWith('claim ') ? [l.slice(6)] : []));
}

describe('appenders and claimers with SIGKILLs', () => {
  it('loses and duplicates nothing, and every claim has exactly one winner', async () => {
    const members = ['c1', 'c2', 'c3'];
    const lead = { agentId: 'team-lead@x', name: 'team-lead' };
    await store.createTeam({ name: 'x', createdAt: 1, leadAgentId: lead.agentId, members: [lead] } as TeamConfig);
    for (const m of members) await store.addMember('x', { agentId: `${m}@x`, name: m });
    for (let i = 0; i < TASKS; i++) await store.createTask('x', { subject: `t${i}`, description: '', blockedBy: i % 4 === 3 ? [String(i)] : [] });

    const writers = ['w1', 'w2', 'w3'];
    const runs = new Map<string, Child[]>(writers.map((w) => [w, [startChild(CHILD, [server.url, 'x', 'append', w, '1', String(PER_WRITER), '3'])]]));

    // Kill each writer once mid-burst and start it again from its last acknowledged message.
    for (const w of writers) {
      const first = runs.get(w)![0]!;
      await first.waitForLine(`ack ${30 * (writers.indexOf(w) + 1)}`);
      first.proc.kill('SIGKILL');
      await first.exited;
      runs.get(w)!.push(startChild(CHILD, [server.url, 'x', 'append', w, String(lastAck(first, 1) + 1), String(PER_WRITER), '3']));
    }
    // One claimer killed right after its first claim; then all three race for the rest, while
    // the restarted writers are still appending.
    const killed = startChild(CHILD, [server.url, 'x', 'claim', 'c1']);
    await firstLine(killed, 'claim ');
    killed.proc.kill('SIGKILL');
    await killed.exited;
    const claimers = members.map((m) => [startChild(CHILD, [server.url, 'x', 'claim', m, 'wait'])]);
    await Promise.all(claimers.map((list) => list[0]!.waitForLine('ready')));
    for (const list of claimers) list[0]!.send('go');
    claimers[0]!.unshift(killed);

    for (const list of runs.values()) expect(await list.at(-1)!.exited).toBe(0);
    // Claimers stop when no task is ready (the blocked ones stay pending: nobody completes their blockers).
    for (const list of claimers) expect(await list.at(-1)!.exited).toBe(0);
    // A real race: more than one claimer won tasks.
    expect(claimers.filter((list) => claimsOf(list.at(-1)!).length > 0).length).toBeGreaterThan(1);

    const texts = (await store.readInbox('x', 'team-lead')).map((e) => e.text);
    expect(texts.length - new Set(texts).size).toBe(0);
    for (const [w, list] of runs) {
      const acked = list.reduce((n, c, i) => Math.max(n, lastAck(c, i === 0 ? 1 : 0)), 0);
      expect(acked).toBe(PER_WRITER);
      const mine = texts.filter((t) => t.startsWith(`${w}-`)).map((t) => Number(t.slice(w.length + 1)));
      expect(mine).toEqual(Array.from({ length: PER_WRITER }, (_, i) => i + 1));
    }

    const tasks = await store.listTasks('x');
    const claimed = tasks.filter((t) => t.owner !== undefined);
    for (const t of claimed) expect(members).toContain(t.owner);
    members.forEach((m, i) => {
      for (const id of claimers[i]!.flatMap(claimsOf)) expect(tasks.find((t) => t.id === id)?.owner).toBe(m);
    });
    const allClaims = claimers.flat().flatMap(claimsOf);
    expect(allClaims.length - new Set(allClaims).size).toBe(0);
    const claimEvents = (await store.readEvents('x')).events.filter((e) => e.kind === 'task' && e.action === 'updated' && e.changed?.includes('owner'));
    expect(claimEvents).toHaveLength(claimed.length);
    expect(new Set(claimEvents.map((e) => (e.kind === 'task' ? e.task.id : ''))).size).toBe(claimed.length);
    // Unblocked tasks were all claimed (45 of 60); the blocked ones wait for their blockers to complete.
    expect(claimed.length).toBe(TASKS - TASKS / 4);
  });
});
