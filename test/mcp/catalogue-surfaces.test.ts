/**
 * Every catalogue tool appears on exactly the surfaces it declares, with the same input rules: the
 * JSON schema the real `mailroom mcp` lists (through the official SDK client) and the one the
 * runtime gives its models are the same schema once each surface's argument names are mapped back
 * to the catalogue's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createTeam } from '../../src/index.js';
import { teamToolSpecs } from '../../src/runtime/tools/index.js';
import { CATALOGUE, argName, type Surface, type ToolEntry } from '../../src/tools/index.js';
import { startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

type Schema = { properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;

/** `schema` with `surface`'s argument names replaced by the catalogue's. */
function canonical(entry: ToolEntry, surface: Surface, schema: Schema): Schema {
  const byName = new Map(Object.keys(entry.input.shape).map((k) => [argName(entry, surface, k), k]));
  const rename = (name: string) => byName.get(name) ?? `(unknown ${name})`;
  const { $schema: _ignored, ...rest } = schema;
  const out: Schema = { ...rest };
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [rename(k), v]));
  if (schema.required) out.required = schema.required.map(rename);
  return out;
}

describe('the catalogue on both surfaces', () => {
  let dir: TempDir;
  let member: McpMember;
  let mcpTools: Tool[];
  const runtimeSpecs = teamToolSpecs();

  beforeAll(async () => {
    dir = await makeTempDir('mailroom-catalogue-');
    await createTeam({ root: openFsStores(dir.path), team: 'cat' });
    member = await startMcpMember(['--root', dir.path, '--team', 'cat', '--as', 'codex']);
    mcpTools = (await member.client.listTools()).tools;
  });
  afterAll(async () => {
    await member?.close();
    await dir?.cleanup();
  });

  it('lists on each surface exactly the tools that declare a name there', () => {
    const declared = (s: Surface) => CATALOGUE.entries.flatMap((e) => (e.names[s] ? [e.names[s]] : [])).sort();
    expect(mcpTools.map((t) => t.name).sort()).toEqual(declared('mcp'));
    expect(runtimeSpecs.map((t) => t.name).sort()).toEqual(declared('runtime'));
    expect(declared('runtime')).toEqual(['LeaseAcquire', 'LeaseList', 'LeaseRelease', 'RunTaskCommand', 'SendMessage', 'TaskClaim', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate']);
  });

  it.each(CATALOGUE.entries.filter((e) => e.names.runtime && e.names.mcp).map((e) => [e.id, e] as const))('%s takes the same input on both surfaces', (_id, entry) => {
    const overMcp = mcpTools.find((t) => t.name === entry.names.mcp)!;
    const inRuntime = runtimeSpecs.find((t) => t.name === entry.names.runtime)!;
    const fromMcp = canonical(entry, 'mcp', overMcp.inputSchema as Schema);
    expect(Object.keys(fromMcp.properties ?? {}).sort()).toEqual(Object.keys(entry.input.shape).sort());
    expect(fromMcp).toEqual(canonical(entry, 'runtime', inRuntime.inputSchema as Schema));
    expect(overMcp.description).toBeTruthy();
    expect(inRuntime.description).toBeTruthy();
  });

  it('keeps the MCP argument names existing clients send', () => {
    const props = (name: string) => Object.keys((mcpTools.find((t) => t.name === name)!.inputSchema as Schema).properties ?? {}).sort();
    expect(props('send_message')).toEqual(['idempotency_key', 'in_reply_to', 'summary', 'text', 'to']);
    expect(props('task_get')).toEqual(['id']);
    expect(props('task_create')).toEqual(['active_form', 'blocked_by', 'description', 'idempotency_key', 'metadata', 'owner', 'subject']);
    expect(props('task_update')).toEqual(['active_form', 'add_blocked_by', 'add_blocks', 'description', 'id', 'metadata', 'owner', 'status', 'subject']);
    expect(props('task_claim')).toEqual(['busy_check', 'id']);
    expect(props('wait_for_message')).toEqual(['limit', 'timeout_ms']);
    expect(props('shutdown_response')).toEqual(['approve', 'reason', 'request_id']);
  });

  it('keeps the runtime argument names scripted models send', () => {
    const props = (name: string) => Object.keys((runtimeSpecs.find((t) => t.name === name)!.inputSchema as Schema).properties ?? {}).sort();
    expect(props('SendMessage')).toEqual(['idempotencyKey', 'in_reply_to', 'message', 'summary', 'to']);
    expect(props('TaskGet')).toEqual(['taskId']);
    expect(props('TaskUpdate')).toEqual(['activeForm', 'addBlockedBy', 'addBlocks', 'description', 'metadata', 'owner', 'status', 'subject', 'taskId']);
    expect(props('RunTaskCommand')).toEqual(['taskId']);
  });
});
