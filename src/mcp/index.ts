/**
 * The MCP face of mailroom: `mailroom mcp` serves one team member's tools and resources over stdio.
 * The only module tree that imports @modelcontextprotocol/sdk; load it lazily.
 */
export { serveMcp, type ServeMcpOptions } from './serve.js';
export { createMcpServer, SERVER_INFO, type McpServerOptions } from './server.js';
export { McpSession, stderrLogger, type Logger } from './session.js';
export { joinTeam, MCP_BACKEND, type JoinOptions, type JoinResult } from './join.js';
export { resourceUris } from './resources.js';
