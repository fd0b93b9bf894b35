/**
 * The tool catalogue: each tool mailroom offers to agents defined once (name per surface, one zod
 * schema, one handler, rules), from which the runtime's team tools and the MCP server's tools are
 * made. A layer above core and below runtime and mcp (docs/decisions.md "One tool catalogue").
 */
export { CATALOGUE, ENTRIES } from './all.js';
export { Catalogue, SURFACE_SERVICES } from './catalogue.js';
export { CATALOGUE_RULES } from './catalogue-rules.js';
export { defineTool, withEntryRules, serviceOf, type ToolEntry, type ToolDefinition, type ToolCallContext, type ToolViews, type ToolHints, type DescribeScope } from './entry.js';
export { argName, snakeCase, surfaceSchema, toCanonical, inputJsonSchema, type JsonSchema } from './naming.js';
export { notPermitted, type ToolCall, type ToolRule } from './rules.js';
export { DEFAULT_WAIT_MS, MAX_WAIT_MS, DEFAULT_LIMIT } from './entries/inbox.js';
export { DEFAULT_COMMAND_TIMEOUT_MS, OUTPUT_TAIL_CHARS } from './entries/run-command.js';
export { compact } from './entries/tasks.js';
export * from './types.js';
