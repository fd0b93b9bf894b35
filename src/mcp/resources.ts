/**
 * MCP resources: the team config (`mailroom://team/<team>/config`, config.json as stored, unknown
 * fields included) and the task board (`mailroom://team/<team>/tasks`, every task with its state).
 * Clients may subscribe to either; the shared store watch then sends `notifications/resources/updated`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { listTasks } from '../core/tasks/board.js';
import type { FeedHint } from '../core/live/feed.js';
import type { McpSession } from './session.js';

/** The URIs of a team's resources. */
export function resourceUris(team: string): { config: string; tasks: string } {
  const base = `mailroom://team/${encodeURIComponent(team)}`;
  return { config: `${base}/config`, tasks: `${base}/tasks` };
}

const json = (uri: string, data: unknown): ReadResourceResult => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }],
});

/** Registers the config and task board resources and their subscriptions (call before connecting). */
export function registerResources(server: McpServer, session: McpSession): void {
  const uris = resourceUris(session.team);
  server.registerResource(
    'team-config',
    uris.config,
    { title: `Team ${session.team}: config`, description: 'config.json of the team: lead, members, their backends and colors', mimeType: 'application/json' },
    async (uri) => json(uri.href, await session.store.team.readConfig(session.team)),
  );
  server.registerResource(
    'task-board',
    uris.tasks,
    { title: `Team ${session.team}: task board`, description: 'Every task in id order with owner, status, open blockers and readiness', mimeType: 'application/json' },
    async (uri) => json(uri.href, { tasks: await listTasks(session.target) }),
  );
  registerSubscriptions(server, session, uris);
}

function registerSubscriptions(server: McpServer, session: McpSession, uris: { config: string; tasks: string }): void {
  const subscribed = new Set<string>();
  let unsubscribeWatch: (() => void) | undefined;
  const onChange = (change: FeedHint) => {
    const uri = change.kind === 'config' ? uris.config : change.kind === 'task' ? uris.tasks : undefined;
    if (uri && subscribed.has(uri)) void server.server.sendResourceUpdated({ uri }).catch((err: unknown) => session.log(`resource update not sent: ${String(err)}`));
  };
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    unsubscribeWatch ??= session.feed.subscribe(onChange);
    await session.feed.start();
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
}
