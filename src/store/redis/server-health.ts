/**
 * `mailroom doctor` on Redis: the server settings that put team data at risk, read with INFO
 * (allowed where CONFIG is renamed away, as on managed services) and CONFIG GET when permitted.
 * mailroom watches through pub/sub on its own channels, so it needs no keyspace notifications
 * (`notify-keyspace-events`) and does not check them.
 */
import type { StoreIssue } from '../health.js';
import type { RedisConnection } from './connection.js';

/** Parses `INFO` text (`key:value` lines) into a map. */
export function parseInfo(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) out.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return out;
}

/**
 * The risky settings of the server behind `conn`: AOF off (`info`: a restart loses what was sent
 * since the last snapshot), AOF with `appendfsync no` (`info`), an eviction policy other than
 * `noeviction` (`problem`: a full server silently deletes inboxes and tasks).
 * @throws STORE_UNAVAILABLE
 */
export async function scanServerSettings(conn: RedisConnection): Promise<StoreIssue[]> {
  const info = parseInfo(String(await conn.call((c) => c.sendCommand(['INFO', 'persistence']))) + '\n' + String(await conn.call((c) => c.sendCommand(['INFO', 'memory']))));
  const location = conn.location;
  const issues: StoreIssue[] = [];
  if (info.get('aof_enabled') === '0') {
    issues.push({
      kind: 'server-setting',
      location,
      setting: 'appendonly',
      value: 'no',
      severity: 'info',
      detail: 'without the append-only file a Redis restart loses every send, task change and claim made since the last snapshot (none at all if snapshots are off).',
      fix: 'set `appendonly yes` and `appendfsync always` (or everysec) in redis.conf, or `redis-cli CONFIG SET appendonly yes`.',
    });
  } else if (info.get('aof_enabled') === '1') {
    const fsync = await conn.call((c) => c.sendCommand(['CONFIG', 'GET', 'appendfsync'])).catch(() => undefined);
    const value = configValue(fsync, 'appendfsync');
    if (value === 'no') {
      issues.push({
        kind: 'server-setting',
        location,
        setting: 'appendfsync',
        value,
        severity: 'info',
        detail: 'the operating system decides when the append-only file reaches the disk, so a machine crash can lose acknowledged sends.',
        fix: 'set `appendfsync always` (no acknowledged send lost) or `everysec` (at most about one second) in redis.conf.',
      });
    }
  }
  const policy = info.get('maxmemory_policy');
  if (policy !== undefined && policy !== 'noeviction') {
    issues.push({
      kind: 'server-setting',
      location,
      setting: 'maxmemory-policy',
      value: policy,
      severity: 'problem',
      detail: 'when the server reaches maxmemory it deletes keys, which silently drops inboxes, tasks and journals.',
      fix: 'set `maxmemory-policy noeviction` in redis.conf (or `redis-cli CONFIG SET maxmemory-policy noeviction`): a full server then refuses writes instead.',
    });
  }
  return issues;
}

/** The value of `name` in a CONFIG GET reply (a map in RESP3, a flat array in RESP2). */
function configValue(reply: unknown, name: string): string | undefined {
  if (Array.isArray(reply)) {
    const i = reply.findIndex((v) => String(v) === name);
    return i >= 0 && i + 1 < reply.length ? String(reply[i + 1]) : undefined;
  }
  if (reply instanceof Map) {
    const v: unknown = reply.get(name);
    return v === undefined ? undefined : String(v);
  }
  if (reply !== null && typeof reply === 'object') {
    const v = (reply as Record<string, unknown>)[name];
    return v === undefined ? undefined : String(v);
  }
  return undefined;
}
