/**
 * The stdio contract of `mailroom mcp`, checked on the raw process: stdout carries only JSON-RPC
 * frames, the server exits 0 once the client closes stdin, and a failed join exits non-zero with the
 * error on stderr and nothing on stdout.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/index.js';
import { BIN } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

interface Exit { code: number | null; stdout: string; stderr: string }

/** Runs `mailroom mcp <args>`, writes `frames` (one JSON per line), closes stdin when `closeAfter` replies arrived. */
function runRaw(args: string[], frames: object[], closeAfter: number): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.split('\n').filter(Boolean).length >= closeAfter) child.stdin.end();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.on('error', () => undefined);
    for (const f of frames) child.stdin.write(`${JSON.stringify(f)}\n`);
    if (closeAfter === 0) child.stdin.end();
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

describe('mailroom mcp over raw stdio', () => {
  let dir: TempDir;
  beforeAll(async () => {
    dir = await makeTempDir('mailroom-mcp-stdio-');
    await createTeam({ root: openFsStores(dir.path), team: 'raw' });
  });
  afterAll(() => dir?.cleanup());

  it('writes only JSON-RPC frames to stdout and exits 0 when stdin closes', async () => {
    const frames = [
      initialize,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'send_message', arguments: { to: 'team-lead', text: 'hi' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'task_get', arguments: { id: '7' } } },
    ];
    const run = await runRaw(['--root', dir.path, '--team', 'raw', '--as', 'raw-agent'], frames, 3);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(lines.every((l) => l.jsonrpc === '2.0')).toBe(true);
    expect(lines.map((l) => l.id).sort()).toEqual([1, 2, 3]);
    expect(lines.find((l) => l.id === 3).result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^TASK_NOT_FOUND: /) }] });
    expect(run.stderr).toContain('joined raw-agent@raw');
  });

  it('answers every request written before stdin closed (a client on a plain pipe)', async () => {
    const frames = [
      initialize,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_members', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'task_list', arguments: {} } },
    ];
    const run = await runRaw(['--root', dir.path, '--team', 'raw', '--as', 'raw-agent'], frames, 0);
    expect(run.code).toBe(0);
    const ids = run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l).id);
    expect(ids.sort()).toEqual([1, 2, 3]);
  });

  it('exits 0 promptly when stdin closes during a long wait_for_message', async () => {
    const frames = [
      initialize,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_message', arguments: { timeout_ms: 600_000 } } },
    ];
    const run = await runRaw(['--root', dir.path, '--team', 'raw', '--as', 'raw-agent'], frames, 1);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('client disconnected; stopped');
  });

  it('refuses to start for a team that does not exist: exit 3, TEAM_NOT_FOUND on stderr, empty stdout', async () => {
    const run = await runRaw(['--root', dir.path, '--team', 'missing', '--as', 'raw-agent'], [initialize], 1);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('TEAM_NOT_FOUND');
  });

  it('refuses a new member name outside ^[a-z0-9][a-z0-9-]{0,63}$', async () => {
    const run = await runRaw(['--root', dir.path, '--team', 'raw', '--as', 'Bad_Name'], [initialize], 1);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('INVALID_NAME');
  });
});
