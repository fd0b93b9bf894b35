/**
 * The chaos suite's short run (issue 21 item 8), part of the normal test suite: both backends,
 * many client processes, a seeded nemesis (kill -9 / SIGSTOP of clients, of the MCP server, of
 * redis-server), then the checker over the whole history. `npm run chaos` runs this file alone and
 * prints the figures; `npm run chaos -- --long` runs it longer ($MAILROOM_CHAOS_SECONDS).
 *
 * ENABLED below is the one list of invariants this test asserts. The others are checked and
 * printed, not asserted: they depend on work landing in parallel on issue 21 (acknowledged MCP
 * hand-out, fencing tokens TASK_FENCED for tasks and reader claims, liveness by the store's
 * clock) and fail on main today — docs/reliability.md has the figures. Enable each (move it into
 * ENABLED) once its item is merged.
 */
import { describe, expect, it } from 'vitest';
import { INVARIANTS, type Invariant } from './checker.js';
import { runChaos, type ChaosReport } from './run.js';

/** The invariants this test asserts (see the file comment before adding one). */
const ENABLED: readonly Invariant[] = [
  // 'lost',               // item 1: the MCP hand-out marks read before the reply reaches the client
  // 'duplicate',          // item 1: a lease that expires hands a message out again, unmarked
  // 'stale-write',        // item 2: no fencing token on task writes (TASK_FENCED)
  // 'two-readers',        // item 2: a reader whose claim was taken over can still take
  // 'dead-while-beating', // item 3: the sweep judges by its own clock, after a pause
];

const SECONDS = Number(process.env.MAILROOM_CHAOS_SECONDS ?? 8);
const SEED = process.env.MAILROOM_CHAOS_SEED === undefined ? undefined : Number(process.env.MAILROOM_CHAOS_SEED);

function report(r: ChaosReport): string {
  const lines = [`chaos ${r.backend}: seed ${r.seed}, ${r.seconds} s, ${r.history.length} history lines`];
  lines.push(`  ops: ${Object.entries(r.result.counts).sort().map(([k, v]) => `${k} ${v}`).join(', ')}`);
  lines.push(`  faults: ${Object.entries(r.result.faults).sort().map(([k, v]) => `${k} ${v}`).join(', ')}`);
  for (const name of INVARIANTS) {
    const v = r.result.violations[name];
    lines.push(`  ${ENABLED.includes(name) ? '[asserted]' : '[reported]'} ${name}: ${v.length} violation(s)${v[0] ? ` — e.g. ${v[0].message}` : ''}`);
  }
  return lines.join('\n');
}

describe.each(['fs', 'redis'] as const)('chaos on the %s store', (backend) => {
  it(
    'the enabled invariants hold over the whole history',
    async () => {
      const r = await runChaos({ backend, seconds: SECONDS, ...(SEED !== undefined ? { seed: SEED } : {}), ...(process.env.MAILROOM_CHAOS_VERBOSE ? { log: (l: string) => process.stdout.write(`${l}\n`) } : {}) });
      process.stdout.write(`${report(r)}\n`);
      if (process.env.MAILROOM_CHAOS_VERBOSE) {
        const per = new Map<string, number>();
        for (const o of r.history) per.set(`${o.process} ${o.f}:${o.type}`, (per.get(`${o.process} ${o.f}:${o.type}`) ?? 0) + 1);
        process.stdout.write(`${[...per].sort().map(([k, v]) => `  ${k} ${v}`).join('\n')}\n`);
      }
      // The run did something: messages went through and faults were injected.
      expect(r.result.counts['send:ok'] ?? 0).toBeGreaterThan(0);
      expect(r.result.counts['take:ok'] ?? 0).toBeGreaterThan(0);
      expect(Object.values(r.result.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      for (const name of ENABLED) expect(r.result.violations[name].map((v) => v.message), `${name} (seed ${r.seed})`).toEqual([]);
    },
    (SECONDS + 120) * 1000,
  );
});
