/**
 * The once-per-process warning about a Redis server that can lose acknowledged mail (issue 21
 * item 6): opening the store checks the server's durability settings (./server-health.ts) and,
 * for each problem, writes one line to the warning sink — once per process and server, however
 * many stores are opened. `--allow-volatile` / `$MAILROOM_ALLOW_VOLATILE` silences it.
 */
import type { RedisConnection } from './connection.js';
import { scanServerSettings } from './server-health.js';

const warned = new Set<string>();

/**
 * Warns about the durability problems of the server behind `conn`, unless this process already did
 * for this server. A server that does not let INFO through is not warned about (doctor says more).
 */
export async function warnIfVolatile(conn: RedisConnection, onWarning: (message: string) => void): Promise<void> {
  if (warned.has(conn.location)) return;
  warned.add(conn.location);
  const issues = await scanServerSettings(conn).catch(() => []);
  for (const i of issues) {
    if (i.kind !== 'server-setting' || i.severity !== 'problem') continue;
    onWarning(`mailroom: warning: the Redis store at ${i.location} has ${i.setting} ${i.value}: ${i.detail} Fix: ${i.fix} (\`mailroom doctor\` checks it; --allow-volatile or $MAILROOM_ALLOW_VOLATILE=1 silences this.)`);
  }
}
