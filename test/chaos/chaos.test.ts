/**
 * The chaos suite's short run (issue 21 item 8), part of the normal test suite: both backends,
 * many client processes, a seeded nemesis (kill -9 / SIGSTOP of clients, of the MCP server, of
 * redis-server, of a `mailroom bridge`; a second bridge on the same root), then the checker over
 * the whole history. `npm run chaos` runs this file alone and prints the figures;
 * `npm run chaos -- --long` runs it longer ($MAILROOM_CHAOS_SECONDS; also part of `npm run bench`).
 *
 * ENABLED below is the one list of invariants this test asserts (all of them); one added to the
 * checker can be tried first with MAILROOM_CHAOS_ASSERT=<name> — docs/reliability.md has the figures.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVARIANTS, type Invariant } from './checker.js';
import { runChaos, type ChaosReport } from './run.js';

/** The invariants this test asserts (see the file comment before adding one). */
const ENABLED: readonly Invariant[] = [
  'lost', // item 1: acknowledged hand-out (MCP `ack`, leases of the reader claim)
  'duplicate', // item 1: a message handed out again is marked a redelivery (same msg_id)
  'stale-write', // item 2: task writes carry the claim's fencing token (TASK_FENCED)
  'two-readers', // item 2: takes and acknowledgements are fenced by the reader claim (READER_FENCED)
  'dead-while-beating', // item 3: liveness by the store's clock (the sweeper tolerates a 3 s stall: run.ts TIMING)
  ...((process.env.MAILROOM_CHAOS_ASSERT ?? '').split(',').filter((n): n is Invariant => (INVARIANTS as readonly string[]).includes(n))),
];

const SECONDS = Number(process.env.MAILROOM_CHAOS_SECONDS ?? 8);
const SEED = process.env.MAILROOM_CHAOS_SEED === undefined ? undefined : Number(process.env.MAILROOM_CHAOS_SEED);

async function keep(dir: string, r: ChaosReport): Promise<void> {
  await mkdir(dir, { recursive: true });
  const base = join(dir, `chaos-${r.backend}-${r.seed}`);
  await writeFile(`${base}.history.ndjson`, r.history.map((o) => JSON.stringify(o)).join('\n') + '\n');
  await writeFile(`${base}.violations.json`, JSON.stringify(r.result.violations, null, 1));
  process.stdout.write(`  history and violations kept in ${base}.*\n`);
}

/** How many members the sweeps declared dead (and took tasks back from) over the run. */
function declaredDead(r: ChaosReport): number {
  return r.history.filter((o) => o.f === 'sweep' && o.type === 'ok').reduce((n, o) => n + (o.value.dead?.length ?? 0), 0);
}

function report(r: ChaosReport): string {
  const lines = [`chaos ${r.backend}: seed ${r.seed}, ${r.seconds} s, ${r.history.length} history lines, ${declaredDead(r)} member(s) declared dead`];
  lines.push(`  ops: ${Object.entries(r.result.counts).sort().map(([k, v]) => `${k} ${v}`).join(', ')}`);
  lines.push(`  faults: ${Object.entries(r.result.faults).sort().map(([k, v]) => `${k} ${v}`).join(', ')}`);
  for (const name of INVARIANTS) {
    const v = r.result.violations[name];
    lines.push(`  ${ENABLED.includes(name) ? '[asserted]' : '[reported]'} ${name}: ${v.length} violation(s)${v[0] ? ` — e.g. ${v[0].message}` : ''}`);
  }
  return lines.join('\n');
}

/** $MAILROOM_CHAOS_BACKENDS (e.g. `redis`) narrows the run to some backends; default both. */
const BACKENDS = (['fs', 'redis'] as const).filter((b) => (process.env.MAILROOM_CHAOS_BACKENDS ?? 'fs,redis').split(',').includes(b));

describe.each(BACKENDS)('chaos on the %s store', (backend) => {
  it(
    'the enabled invariants hold over the whole history',
    async () => {
      const r = await runChaos({ backend, seconds: SECONDS, ...(SEED !== undefined ? { seed: SEED } : {}), ...(process.env.MAILROOM_CHAOS_VERBOSE ? { log: (l: string) => process.stdout.write(`${l}\n`) } : {}) });
      process.stdout.write(`${report(r)}\n`);
      // $MAILROOM_CHAOS_HISTORY=<dir>: keep each run's whole history and violations there, to study.
      if (process.env.MAILROOM_CHAOS_HISTORY) await keep(process.env.MAILROOM_CHAOS_HISTORY, r);
      if (process.env.MAILROOM_CHAOS_VERBOSE) {
        const per = new Map<string, number>();
        for (const o of r.history) per.set(`${o.process} ${o.f}:${o.type}`, (per.get(`${o.process} ${o.f}:${o.type}`) ?? 0) + 1);
        process.stdout.write(`${[...per].sort().map(([k, v]) => `  ${k} ${v}`).join('\n')}\n`);
      }
      // The run did something: messages went through and faults were injected.
      expect(r.result.counts['send:ok'] ?? 0).toBeGreaterThan(0);
      expect(r.result.counts['take:ok'] ?? 0).toBeGreaterThan(0);
      expect(Object.values(r.result.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      // `dead-while-beating` is not vacuous: the worker stopped past the bound was declared dead.
      expect(declaredDead(r), 'no sweep declared the long-stopped worker dead').toBeGreaterThan(0);
      // One bridge per (root, team): a second one started beside the running one was refused.
      expect(r.result.faults['second-bridge-ran'] ?? 0, 'a second bridge on the same root ran').toBe(0);
      for (const name of ENABLED) expect(r.result.violations[name].map((v) => v.message), `${name} (seed ${r.seed})`).toEqual([]);
    },
    // Generous: starting a dozen processes and the drain take long on a loaded machine (no timed assertion).
    (SECONDS * 2 + 180) * 1000,
  );
});
