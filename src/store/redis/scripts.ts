/**
 * The Lua scripts, one file per transition under ./lua/ (BullMQ's layout: each file's header
 * lists its KEYS and ARGV and what it returns), and running them with EVALSHA.
 *
 * Every script gets the helpers of ./lua/prelude.lua that it uses prepended (after its `#!lua` line,
 * when it has one): each top-level declaration of the prelude whose name the script or another
 * helper it gets mentions, in the prelude's order. Redis runs a script's whole text on every call,
 * so unused helpers would cost each call their closures (~3 µs of server CPU per append, issue 24
 * item 2); which helpers a script gets is decided by their names alone, so the text of a helper is
 * the same in every script. A script
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
  'read-appended',
  'read-inbox',
  'read-inbox-changes',
  'list-inboxes',
  'take-unread',
  'read-view-stamp',
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

/** One top-level declaration of the prelude (`local function f`, `local a, b = …`): its names, and its lines with the comment right above it. */
interface PreludeBlock {
  names: string[];
  lines: string[];
}

/** The prelude cut into its header comment and its top-level declarations. */
export function preludeBlocks(source: string): { head: string; blocks: PreludeBlock[] } {
  const head: string[] = [];
  const blocks: PreludeBlock[] = [];
  for (const line of source.split('\n')) {
    const declared = /^local\s+function\s+([A-Za-z_]\w*)/.exec(line)?.[1] ?? /^local\s+([A-Za-z_][\w\s,]*?)\s*=/.exec(line)?.[1];
    const last = blocks.at(-1)?.lines ?? head;
    if (declared === undefined) {
      last.push(line);
      continue;
    }
    // The comment lines just above a declaration are its own.
    let from = last.length;
    while (from > 0 && last[from - 1]!.startsWith('--')) from--;
    if (last === head && from === 0) from = last.length;
    blocks.push({ names: declared.split(',').map((n) => n.trim()), lines: [...last.splice(from), line] });
  }
  return { head: head.join('\n'), blocks };
}

/** The prelude's declarations that `body` uses, directly or through another one it gets, in the prelude's order. */
export function preludeFor(body: string, source: string): string {
  const { head, blocks } = preludeBlocks(source);
  const used = blocks.map(() => false);
  let text = body;
  for (let changed = true; changed; ) {
    changed = false;
    blocks.forEach((b, i) => {
      if (used[i] || !b.names.some((n) => new RegExp(`\\b${n}\\b`).test(text))) return;
      used[i] = true;
      text += `\n${b.lines.join('\n')}`;
      changed = true;
    });
  }
  return [head, ...blocks.filter((_, i) => used[i]).map((b) => b.lines.join('\n'))].join('\n');
}

/** One script, read and assembled on first use (a one-shot verb reads only the scripts it runs). */
export function script(name: ScriptName): Script {
  const known = cache.get(name);
  if (known) return known;
  prelude ??= preludeSource();
  const body = readFileSync(new URL(`./lua/${name}.lua`, import.meta.url), 'utf8');
  const shebang = body.startsWith('#!') ? body.slice(0, body.indexOf('\n') + 1) : '';
  const source = `${shebang || '#!lua\n'}${preludeFor(body, prelude)}\n${body.slice(shebang.length)}`;
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

/** Options of {@link runScript}. */
export interface RunOptions {
  /**
   * Called when the server did not hold the script (NOSCRIPT) and it ran only after SCRIPT LOAD:
   * later than the calls sent after it on the connection, which ran meanwhile.
   */
  onReload?: () => void;
}

/**
 * Runs a script by EVALSHA with `keys` and `args` (strings only), loading it on NOSCRIPT.
 * @throws STORE_UNAVAILABLE (connection), INTERNAL (a script error: a bug, with the server's message)
 */
export function runScript(conn: RedisConnection, name: ScriptName, keys: readonly string[], args: readonly string[], options: RunOptions = {}): Promise<RawReply> {
  const known = script(name);
  return conn.call((client) => evalSha(client, known, keys, args).catch((err: unknown) => reloaded(client, known, keys, args, err, options)));
}

/** After `err`: when it is NOSCRIPT, the script loaded and the call repeated (nothing ran the first time); else `err` again. */
async function reloaded(client: Client, known: Script, keys: readonly string[], args: readonly string[], err: unknown, options: RunOptions): Promise<RawReply> {
  if (!(err instanceof ErrorReply) || !err.message.startsWith('NOSCRIPT')) throw err;
  options.onReload?.();
  await client.sendCommand(['SCRIPT', 'LOAD', known.source]);
  return evalSha(client, known, keys, args);
}

/** Loads every script into the server's cache (pipelined), so first calls need no NOSCRIPT retry (opening a store does not: a script is loaded on its first NOSCRIPT). */
export async function loadScripts(conn: RedisConnection): Promise<void> {
  await conn.call((client) => Promise.all([...scripts().values()].map((script) => client.sendCommand(['SCRIPT', 'LOAD', script.source]))));
}

/** EVALSHA of `script`; the command array is filled by loops (two spreads in an array literal cost a writer's optimizing compiler more than all else on the path). */
function evalSha(client: Client, script: Script, keys: readonly string[], args: readonly string[]): Promise<RawReply> {
  const command = ['EVALSHA', script.sha, String(keys.length)];
  for (let i = 0; i < keys.length; i++) command.push(keys[i]!);
  for (let i = 0; i < args.length; i++) command.push(args[i]!);
  return client.sendCommand(command);
}
