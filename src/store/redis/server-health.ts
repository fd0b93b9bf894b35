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
 * The risky settings of the server behind `conn` (issue 21 item 6: durability is checked, not
 * assumed). Problems (`doctor` exits 7): AOF off (a restart loses everything since the last
 * snapshot, acknowledged sends included), `appendfsync no` (the operating system decides when
 * acknowledged writes reach the disk), and an eviction policy other than `noeviction` (a full
 * server silently deletes inboxes, tasks, whole teams). Info: `appendfsync everysec`, with its
 * bound (up to about 1 s of acknowledged mail lost on a power loss or kernel crash).
 * @throws STORE_UNAVAILABLE
 */
export async function scanServerSettings(conn: RedisConnection): Promise<StoreIssue[]> {
  const info = parseInfo(String(await conn.call((c) => c.sendCommand(['INFO', 'persistence']))) + '\n' + String(await conn.call((c) => c.sendCommand(['INFO', 'memory']))));
  const location = conn.location;
  const issues: StoreIssue[] = [];
  const issue = (setting: string, value: string, severity: 'problem' | 'info', detail: string, fix: string) => issues.push({ kind: 'server-setting', location, setting, value, severity, detail, fix });
  if (info.get('aof_enabled') === '0') {
    issue('appendonly', 'no', 'problem', 'without the append-only file a Redis restart (crash, kill -9, reboot) loses every send, task change and claim made since the last snapshot — acknowledged mail included — and whole teams when there is no snapshot.', AOF_FIX);
  } else if (info.get('aof_enabled') === '1') {
    const fsync = await conn.call((c) => c.sendCommand(['CONFIG', 'GET', 'appendfsync'])).catch(() => undefined);
    const value = configValue(fsync, 'appendfsync');
    if (value === 'no') {
      issue('appendfsync', value, 'problem', 'the operating system decides when the append-only file reaches the disk (often every 30 s), so a power loss or kernel crash can lose that much acknowledged mail.', 'set `appendfsync always` (no acknowledged send lost) or `everysec` (at most about one second) in redis.conf, or `redis-cli CONFIG SET appendfsync always`.');
    } else if (value === 'everysec') {
      issue('appendfsync', value, 'info', 'the append-only file is synced once a second: a power loss or kernel crash can lose up to 1 s of acknowledged mail and task changes (a crash of Redis alone loses nothing).', 'set `appendfsync always` for none at all (each write then waits for the disk).');
    }
  }
  const policy = info.get('maxmemory_policy');
  if (policy !== undefined && policy !== 'noeviction') {
    issue('maxmemory-policy', policy, 'problem', 'when the server reaches maxmemory it deletes keys, which silently drops inboxes, tasks and journals (mailroom then reports TEAM_LOST).', 'set `maxmemory-policy noeviction` in redis.conf (or `redis-cli CONFIG SET maxmemory-policy noeviction`): a full server then refuses writes instead (STORE_FULL).');
  }
  return issues;
}

const AOF_FIX = 'set `appendonly yes` and `appendfsync always` (or everysec) in redis.conf, or `redis-cli CONFIG SET appendonly yes`.';

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
