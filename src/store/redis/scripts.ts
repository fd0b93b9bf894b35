/**
 * The Lua scripts, one file per transition under ./lua/ (BullMQ's layout: each file's header
 * lists its KEYS and ARGV and what it returns), and running them with EVALSHA.
 *
 * Every script gets ./lua/prelude.lua prepended (after its `#!lua` line, when it has one). A script
 * without one gets a bare `#!lua` (issue 21 item 4): Redis then applies its OOM rule to the script as
 * a whole, before it runs, so a full server (maxmemory, noeviction) refuses a transition at once
 * (STORE_FULL) instead of letting a script whose first write frees memory go on writing past the limit.
 * A script runs by EVALSHA; a server that does not hold it yet (first use, or restarted) answers
 * NOSCRIPT, and the script is loaded with SCRIPT LOAD and the call repeated (nothing ran the
 * first time). Sources are read and hashed on first use.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { ErrorReply } from './resp-client.js';
import type { Client, RedisConnection } from './connection.js';

/** Every script, by name (the file is `lua/<name>.lua`). */
export const SCRIPT_NAMES = [
  'create-team',
  'delete-team',
  'restore-team',
  'import-team',
  'read-team',
  'add-member',
  'update-member',
  'remove-member',
  'read-member-records',
  'dead-letter-inbox',
  'read-dead-letters',
  'remove-dead-letter',
  'redeliver-dead-letters',
  'read-settings',
  'update-settings',
  'read-path-leases',
  'write-path-leases',
  'append-messages',
  'read-inbox',
  'read-inbox-changes',
  'list-inboxes',
  'take-unread',
  'acknowledge',
  'release',
  'mark-read',
  'archive-inbox',
  'set-inbox-aside',
  'create-task',
  'read-tasks',
  'claim-task',
  'patch-task',
  'link-tasks',
  'unlink-tasks',
  'delete-task',
  'put-task',
  'unassign-tasks',
  'claim-reader',
  'beat',
  'release-reader',
  'read-claims',
  'read-clock',
  'record-observed',
  'read-events',
] as const;

/** A script's name. */
export type ScriptName = (typeof SCRIPT_NAMES)[number];

/** A script's source and its SHA-1. */
export interface Script {
  name: ScriptName;
  source: string;
  sha: string;
}

const cache = new Map<ScriptName, Script>();
let prelude: string | undefined;

/** The shared helpers prepended to every script (./lua/prelude.lua). */
export function preludeSource(): string {
  return readFileSync(new URL('./lua/prelude.lua', import.meta.url), 'utf8');
}

/** One script, read and assembled on first use (a one-shot verb reads only the scripts it runs). */
export function script(name: ScriptName): Script {
  const known = cache.get(name);
  if (known) return known;
  prelude ??= preludeSource();
  const body = readFileSync(new URL(`./lua/${name}.lua`, import.meta.url), 'utf8');
  const shebang = body.startsWith('#!') ? body.slice(0, body.indexOf('\n') + 1) : '';
  const source = `${shebang || '#!lua\n'}${prelude}\n${body.slice(shebang.length)}`;
  const made: Script = { name, source, sha: createHash('sha1').update(source).digest('hex') };
  cache.set(name, made);
  return made;
}

/** Every script, by name. */
export function scripts(): ReadonlyMap<ScriptName, Script> {
  return new Map(SCRIPT_NAMES.map((name) => [name, script(name)]));
}

/** A raw script reply: nested arrays of strings and nulls. */
export type RawReply = unknown;

/**
 * Runs a script by EVALSHA with `keys` and `args` (strings only), loading it on NOSCRIPT.
 * @throws STORE_UNAVAILABLE (connection), INTERNAL (a script error: a bug, with the server's message)
 */
export async function runScript(conn: RedisConnection, name: ScriptName, keys: readonly string[], args: readonly string[]): Promise<RawReply> {
  const known = script(name);
  return conn.call(async (client) => {
    try {
      return await evalSha(client, known, keys, args);
    } catch (err) {
      if (!(err instanceof ErrorReply) || !err.message.startsWith('NOSCRIPT')) throw err;
      await client.sendCommand(['SCRIPT', 'LOAD', known.source]);
      return evalSha(client, known, keys, args);
    }
  });
}

/** Loads every script into the server's cache (pipelined), so first calls need no NOSCRIPT retry (opening a store does not: a script is loaded on its first NOSCRIPT). */
export async function loadScripts(conn: RedisConnection): Promise<void> {
  await conn.call((client) => Promise.all([...scripts().values()].map((script) => client.sendCommand(['SCRIPT', 'LOAD', script.source]))));
}

function evalSha(client: Client, script: Script, keys: readonly string[], args: readonly string[]): Promise<RawReply> {
  return client.sendCommand(['EVALSHA', script.sha, String(keys.length), ...keys, ...args]);
}
