/**
 * Both tool surfaces over one store, for catalogue tests: a runtime teammate's tool calls (what
 * its model's tool_use blocks run) and an MCP member reached by the official SDK client over
 * JSON-RPC streams (./mcp-streams.ts), each over the given catalogue.
 */
import { createMcpServer } from '../../src/mcp/server.js';
import { McpSession } from '../../src/mcp/session.js';
import type { ToolResultBlock } from '../../src/runtime/models/types.js';
import { runToolCall } from '../../src/runtime/tools/index.js';
import type { ToolContext } from '../../src/runtime/tools/types.js';
import { CATALOGUE, type Catalogue } from '../../src/tools/index.js';
import { connectOverStreams, type StreamMcpClient } from './mcp-streams.js';
import { openFsStores } from '../../src/store/open.js';

/** The two surfaces. */
export interface Surfaces {
  /** Runs one runtime tool call as the runtime member. */
  runtime(name: string, input: Record<string, unknown>): Promise<ToolResultBlock>;
  /** The runtime member's tool context (without the per-turn record). */
  runtimeContext: Omit<ToolContext, 'record'>;
  mcp: StreamMcpClient;
  close(): Promise<void>;
}

/** Serves `catalogue` as `runtimeAs` in the runtime and as `mcpAs` over MCP (both must be members). */
export async function serveBothSurfaces(o: { root: string; team: string; runtimeAs: string; mcpAs: string; catalogue?: Catalogue }): Promise<Surfaces> {
  const store = openFsStores(o.root);
  const catalogue = o.catalogue ?? CATALOGUE;
  const runtimeContext = { store, team: o.team, name: o.runtimeAs, lead: 'team-lead', cwd: o.root, signal: new AbortController().signal, catalogue };
  const session = new McpSession(store, o.team, o.mcpAs, () => undefined);
  const mcp = await connectOverStreams(createMcpServer(session, { catalogue }));
  let calls = 0;
  return {
    runtime: (name, input) => runToolCall({ type: 'tool_use', id: `t${++calls}`, name, input }, { ...runtimeContext, record: {} }),
    runtimeContext,
    mcp,
    close: async () => {
      await mcp.close();
      await session.close();
    },
  };
}

/** The JSON of a successful runtime tool result; throws with its text otherwise. */
export function runtimeJson<T = Record<string, unknown>>(result: ToolResultBlock): T {
  if (result.isError) throw new Error(`tool failed: ${String(result.content)}`);
  return JSON.parse(String(result.content)) as T;
}
