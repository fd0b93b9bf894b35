/**
 * Running `mailroom mcp`: join the team, serve MCP over stdio until the client goes away (stdin
 * ends or closes, or SIGINT/SIGTERM), then release the watch. Only protocol frames go to stdout.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Store } from '../store/store.js';
import { joinTeam } from './join.js';
import { createMcpServer } from './server.js';
import { McpSession, stderrLogger, type Logger } from './session.js';

/** Input of {@link serveMcp}. */
export interface ServeMcpOptions {
  store: Store;
  team: string;
  /** Member name to act as; registered (backendType `in-process`) when the team has no such member. */
  as: string;
  /** Model id recorded when registering (default `"unknown"`). */
  model?: string | undefined;
  /** agentType recorded when registering. */
  type?: string | undefined;
  log?: Logger | undefined;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/**
 * Serves until the client disconnects. Resolves when the server has shut down.
 * @throws TEAM_NOT_FOUND, INVALID_NAME, MEMBER_EXISTS (from joining), before anything is served
 */
export async function serveMcp(options: ServeMcpOptions): Promise<void> {
  const log = options.log ?? stderrLogger;
  const { member, registered } = await joinTeam({ store: options.store, team: options.team, name: options.as, model: options.model, type: options.type });
  log(`${registered ? 'joined' : 'acting as'} ${member.agentId} (store ${options.store.root})`);
  const session = new McpSession(options.store, options.team, member.name, log);
  const server = createMcpServer(session);
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin as typeof process.stdin, (options.stdout ?? process.stdout) as typeof process.stdout);
  const ended = untilEnded(stdin, transport);
  await server.connect(transport);
  await ended;
  await session.close();
  await server.close();
  log('client disconnected; stopped');
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
