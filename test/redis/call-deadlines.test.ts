/**
 * One timer per connection watches every call in flight (connection.ts `withDeadline`): each call
 * fails with STORE_UNAVAILABLE (reason `deadline`) once its own deadline passes, whatever order the
 * deadlines were given in, a call answered in time is never failed later, and the connection's
 * timer does not keep a process alive (it exits with a call still watched once the store is closed).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisConnection } from '../../src/store/redis/connection.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

let server: RedisServer;
let conn: RedisConnection;
beforeAll(async () => {
  server = await startRedis();
  conn = await RedisConnection.open(server.url, { timeoutMs: 5_000 });
});
afterAll(async () => {
  await conn?.close();
  await server?.stop();
});

const never = () => new Promise<never>(() => undefined);
const outcome = (p: Promise<unknown>, order: string[], name: string) =>
  p.then(
    (v) => {
      order.push(`${name} ok`);
      return v;
    },
    (err: unknown) => {
      order.push(`${name} ${(err as { code?: string; details?: { reason?: string } }).code}/${(err as { details?: { reason?: string } }).details?.reason}`);
    },
  );

describe('call deadlines, one timer per connection', () => {
  it('fails each call at its own deadline, the later-given earlier one first, and never one answered in time', async () => {
    const order: string[] = [];
    const now = Date.now();
    const late = outcome(conn.withDeadline(never(), now + 400), order, 'late');
    const early = outcome(conn.withDeadline(never(), now + 100), order, 'early');
    // A PING answered well inside its deadline even on a loaded machine (50 ms was not: a starved
    // test process saw it fail at its deadline); its deadline passes last, and nothing fails it then.
    const answered = outcome(conn.withDeadline(conn.call((c) => c.sendCommand(['PING'])), now + 1_000), order, 'answered');
    await Promise.all([late, early, answered]);
    await new Promise((r) => setTimeout(r, now + 1_100 - Date.now())); // past the answered call's deadline
    expect(order.filter((o) => !o.startsWith('answered'))).toEqual(['early STORE_UNAVAILABLE/deadline', 'late STORE_UNAVAILABLE/deadline']);
    expect(order.filter((o) => o.startsWith('answered'))).toEqual(['answered ok']);
  });

  it('works again after a deadline: later calls are watched and answered', async () => {
    await expect(conn.withDeadline(never(), Date.now() + 20)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expect(conn.call((c) => c.sendCommand(['PING']))).resolves.toBe('PONG');
  });

  it('does not keep a process alive: a closed store with a call still watched exits at once', () => {
    const script = `
      const { RedisConnection } = await import(${JSON.stringify(new URL('../../dist/store/redis/connection.js', import.meta.url).href)});
      const conn = await RedisConnection.open(${JSON.stringify(server.url)}, { timeoutMs: 60000 });
      conn.withDeadline(new Promise(() => {}), Date.now() + 60000).catch(() => {});
      await conn.close();
      console.log('closed');`;
    // Killed after 30 s (status null) if anything kept it alive: the watched call's deadline is 60 s away.
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stdout.trim()).toBe('closed');
    expect(run.status).toBe(0);
  });
});
