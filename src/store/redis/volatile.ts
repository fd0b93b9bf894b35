/**
 * The once-per-process warning about a Redis server that can lose acknowledged mail (issue 21
 * item 6): opening the store checks the server's durability settings (./server-health.ts) and,
 * for each problem, writes one line to the warning sink — once per process and server (its
 * host:port/db: URLs that differ only by user name or password are one server), however
 * many stores are opened, and, when a period is given, only if no process on this machine showed
 * it for that server within the period (the CLI's one-shot commands: an hour, docs/reliability.md
 * "Durability is checked, not assumed"). `--allow-volatile` / `$MAILROOM_ALLOW_VOLATILE` silences it.
 */
import type { RedisConnection } from './connection.js';
import { scanServerSettings } from './server-health.js';
import { redisServerKey } from './url.js';

const warned = new Set<string>();

/** How often a warning may be shown beyond one process: `firstInPeriod` of the host store, and the period (ms). */
export interface WarningPeriod {
  periodMs: number;
  firstInPeriod(key: string, periodMs: number): Promise<boolean>;
}

/**
 * Warns about the durability problems of the server behind `conn`, unless this process already did
 * for this server, or (with `period`) a process on this machine did within the period. A server
 * that does not let INFO through is not warned about (doctor says more).
 */
export async function warnIfVolatile(conn: RedisConnection, onWarning: (message: string) => void, period?: WarningPeriod): Promise<void> {
  const server = redisServerKey(conn.location); // the URL's user name and password do not make another server
  if (warned.has(server)) return;
  warned.add(server);
  const issues = (await scanServerSettings(conn).catch(() => [])).filter((i) => i.kind === 'server-setting' && i.severity === 'problem');
  if (issues.length === 0) return;
  if (period && !(await period.firstInPeriod(`volatile-server ${server}`, period.periodMs))) return;
  const again = period ? `shown at most once ${periodText(period.periodMs)} per mailroom root on this machine (--root); ` : '';
  for (const i of issues) {
    if (i.kind !== 'server-setting') continue;
    onWarning(`mailroom: warning: the Redis store at ${i.location} has ${i.setting} ${i.value}: ${i.detail} Fix: ${i.fix} (${again}\`mailroom doctor\` checks it; --allow-volatile or $MAILROOM_ALLOW_VOLATILE=1 silences this.)`);
  }
}

/** `an hour`, `every 10 minutes`-style words for a period: `an hour` for 3 600 000 ms, else `per N s`. */
function periodText(ms: number): string {
  return ms === 3_600_000 ? 'an hour' : `per ${Math.round(ms / 1000)} s`;
}
