/**
 * Running `mailroom mcp`: join the team, serve MCP over stdio until the client goes away (stdin
 * ends or closes, or SIGINT/SIGTERM), then release the watch. Only protocol frames go to stdout.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { startSweeper } from '../core/members/dead-members.js';
import { startArchiver } from '../core/messages/inbox-archiver.js';
import { ReaderLease } from '../core/members/reader-claim.js';
import type { Stores } from '../store/selection.js';
import { giveBackCancelled } from './cancelled.js';
import { joinTeam } from './join.js';
import { createMcpServer } from './server.js';
import { McpSession, stderrLogger, type Logger } from './session.js';

/** Input of {@link serveMcp}. */
export interface ServeMcpOptions {
  store: Stores;
  team: string;
  /** Member name to act as; registered (backendType `in-process`) when the team has no such member. */
  as: string;
  /** Model id recorded when registering (default `"unknown"`). */
  model?: string | undefined;
  /** agentType recorded when registering. */
  type?: string | undefined;
  /** Capabilities recorded when registering. */
  capabilities?: readonly string[] | undefined;
  log?: Logger | undefined;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/**
 * Serves until the client disconnects. Resolves when the server has shut down. The server holds
 * the member's reader claim while it serves (one reader per member: a second `mailroom mcp` for the
 * member, a `mailroom agent` or a `mailroom run` hosting it is refused while this one runs; one
 * whose process died on this machine is taken over at once).
 * @throws TEAM_NOT_FOUND, INVALID_NAME, MEMBER_EXISTS (from joining), TEAMMATE_RUNNING (another
 * reader has the member), before anything is served
 */
export async function serveMcp(options: ServeMcpOptions): Promise<void> {
  const log = options.log ?? stderrLogger;
  const { member, registered, lead } = await joinTeam({ store: options.store, team: options.team, name: options.as, model: options.model, type: options.type, capabilities: options.capabilities });
  // The lead keeps no isActive (Claude Code's lead has none; TeamDelete looks at teammates only).
  const isLead = lead === member.name;
  const reader = await ReaderLease.take(options.store, options.team, member.name, 'mcp', { log, syncActive: !isLead, onLost: (err) => log(`lost the reader claim: ${err.message}`) });
  log(`${registered ? 'joined' : 'acting as'} ${member.agentId} (store ${options.store.team.location})`);
  const session = new McpSession(options.store, options.team, member.name, log, reader);
  const server = createMcpServer(session, { lead });
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin as typeof process.stdin, (options.stdout ?? process.stdout) as typeof process.stdout);
  const ended = untilEnded(stdin, transport);
  await server.connect(transport);
  let sweeper: { close(): void } | undefined;
  let archiver: { close(): void } | undefined;
  // Started after the first answer (or BACKGROUND_START_MS into serving without one), so their
  // first reads and the sweeper's beat do not delay the client's start.
  const startBackground = () => {
    if (sweeper) return;
    // Any live runtime takes back the tasks of teammates that died (docs/runtime.md "Dead members").
    sweeper = startSweeper({ root: options.store, team: options.team, by: member.name, log, presence: reader });
    // …and archives the team's large inboxes beside the sends (core/messages/inbox-archiver.ts).
    archiver = startArchiver({ root: options.store, team: options.team, log });
  };
  const backgroundTimer = setTimeout(startBackground, BACKGROUND_START_MS);
  const inFlight = trackRequests(transport, () => setImmediate(startBackground));
  giveBackCancelled(transport, session.handOut);
  await ended;
  clearTimeout(backgroundTimer);
  sweeper?.close();
  archiver?.close();
  await session.close();
  // A client that writes its requests and then closes stdin (a pipe) still gets every answer.
  await inFlight.drained(DRAIN_LIMIT_MS);
  await server.close();
  log('client disconnected; stopped');
}

/** Longest wait for answers to requests that were in flight when the client went away (ms). */
const DRAIN_LIMIT_MS = 10_000;

/** The dead-member sweeper and the archiver start at the first answer, or this long into serving without one (ms). */
const BACKGROUND_START_MS = 1_000;

/**
 * Counts requests between their arrival and their response on `transport` (installed after
 * `server.connect`, which set the transport's handlers); `answered` is called after each response
 * is written. `drained(ms)` resolves once none is in flight, or after `ms`.
 */
function trackRequests(transport: StdioServerTransport, answered: () => void): { drained(limitMs: number): Promise<void> } {
  const pending = new Set<string | number>();
  let onEmpty: (() => void) | undefined;
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('id' in message && 'method' in message) pending.add(message.id);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if ('id' in message && message.id !== undefined && !('method' in message)) {
      pending.delete(message.id);
      answered();
    }
    if (pending.size === 0) onEmpty?.();
  };
  return {
    drained: (limitMs) =>
      pending.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, limitMs);
            onEmpty = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
  };
}

/** Resolves on the first of: stdin end/close, transport close, SIGINT, SIGTERM. */
function untilEnded(stdin: NodeJS.ReadableStream, transport: StdioServerTransport): Promise<void> {
  return new Promise<void>((resolve) => {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
    const done = () => {
      stdin.off('end', done).off('close', done);
      for (const s of signals) process.off(s, done);
      resolve();
    };
    stdin.once('end', done).once('close', done);
    for (const s of signals) process.once(s, done);
    transport.onclose = done;
  });
}
