/**
 * Metadata keys that name object internals (`__proto__`, `constructor`, `prototype`) are refused
 * by the MCP task tools, like the CLI's --metadata: zod used to rebuild the object and silently
 * drop an own `__proto__` key, so the agent believed it had stored it.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/index.js';
import { startMcpMember, textOf, type McpMember } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

let dir: TempDir;
let member: McpMember;
beforeAll(async () => {
  dir = await makeTempDir('mailroom-mcp-meta-');
  await createTeam({ root: openFsStores(dir.path), team: 'meta' });
  member = await startMcpMember(['--root', dir.path, '--team', 'meta', '--as', 'agent']);
});
afterAll(async () => {
  await member?.close();
  await dir?.cleanup();
});

describe('task_create metadata', () => {
  it.each(['__proto__', 'constructor'])('refuses the key %s and creates no task', async (key) => {
    const metadata = JSON.parse(`{"${key}": {"polluted": true}, "ok": 1}`) as Record<string, unknown>;
    const result = await member.call('task_create', { subject: 'x', metadata });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`the key "${key}" cannot be used in metadata`);
    expect((await readdir(join(dir.path, 'tasks', 'meta'))).filter((f) => f.endsWith('.json'))).toEqual([]);
  });

  it('stores ordinary keys', async () => {
    const result = await member.call('task_create', { subject: 'y', metadata: { command: 'true' } });
    expect(result.isError).toBeFalsy();
  });
});
