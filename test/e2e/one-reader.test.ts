/**
 * Issue 9 item 1: one consumer per member on every reader path. Before, only two `mailroom agent`s
 * refused each other; two `mailroom mcp --as alice` servers handed out 16–39 duplicates per 20–100
 * messages, and `InProcessHost.add` twice, two `runTeammate`s, `agent` + `mcp` and `run` + `agent`
 * all delivered messages twice. Now each reader holds the member's reader claim and a second is
 * refused with TEAMMATE_RUNNING naming the holder (kind, host, pid). Real CLI processes and the
 * official MCP SDK client.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { InProcessHost } from '../../src/runtime/host.js';
import { runTeammate } from '../../src/runtime/teammate.js';
import { openFsStores } from '../../src/store/open.js';
import { dataOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { functionModel, until } from '../helpers/runtime.js';
import { cleanEnv, mailroom } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const mcps: McpMember[] = [];
const clis: LineChild[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 't' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice' });
});
afterEach(async () => {
  for (const m of mcps.splice(0)) await m.close().catch(() => undefined);
  for (const c of clis.splice(0)) await c.stop();
  await dir.cleanup();
});

const mcpArgs = ['--root', () => dir.path, '--team', 't', '--as', 'alice'] as const;
const args = () => mcpArgs.map((a) => (typeof a === 'function' ? a() : a));
async function mcp(): Promise<McpMember> {
  const m = await startMcpMember(args());
  mcps.push(m);
  return m;
}
async function messages(n: number, prefix = 'm'): Promise<string[]> {
  const texts = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  for (const text of texts) await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text });
  return texts;
}

describe('mailroom mcp', () => {
  it('refuses a second server for the member, naming the first; the first hands out every message once', async () => {
    const first = await mcp();
    const texts = await messages(20);
    const second = await mailroom(dir.path, 'mcp', '--team', 't', '--as', 'alice');
    expect(second.code, second.stderr).toBe(4);
    expect(second.stderr).toContain('TEAMMATE_RUNNING');
    expect(second.stderr).toMatch(/a mailroom mcp server, process \d+ on host /);
    const got: string[] = [];
    for (;;) {
      const { messages: batch } = dataOf<{ messages: Array<{ text: string }> }>(await first.call('read_inbox', { limit: 7 }));
      if (batch.length === 0) break;
      got.push(...batch.map((m) => m.text));
    }
    expect(got).toEqual(texts);
    expect((await openFsStores(dir.path).team.readInbox('t', 'alice')).every((e) => e.read === true)).toBe(true);
  });

  it('lets a new server in once the first has gone: at once after a clean exit, and at once after SIGKILL on this host', async () => {
    const first = await mcp();
    await first.close();
    const second = await mcp();
    const pid = (second.client.transport as { pid?: number | null } | undefined)?.pid;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await until(async () => (await openFsStores(dir.path).host.probeProcess(pid!)).kind === 'exited', 5_000, 'the killed server to be gone');
    const started = Date.now();
    const third = await mcp();
    expect(Date.now() - started).toBeLessThan(10_000); // the claim's ttl is 15 s: the dead holder was evicted, not waited out
    const texts = await messages(3, 'after');
    expect(dataOf<{ messages: Array<{ text: string }> }>(await third.call('read_inbox', {})).messages.map((m) => m.text)).toEqual(texts);
  });
});

describe('mailroom agent and mailroom mcp', () => {
  it('refuses an MCP server for a member a foreground agent runs, and an agent for a member an MCP server reads', async () => {
    const agent = startCli(['agent', 'alice', '--root', dir.path, '--team', 't'], cleanEnv());
    clis.push(agent);
    await agent.waitForLine((l) => l.includes('alice: started'));
    const refused = await mailroom(dir.path, 'mcp', '--team', 't', '--as', 'alice');
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toContain(`a mailroom agent process, process ${agent.proc.pid} on host`);
    await agent.stop();

    await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'bob' });
    await startMcpMember(['--root', dir.path, '--team', 't', '--as', 'bob']).then((m) => mcps.push(m));
    const second = await mailroom(dir.path, 'agent', 'bob', '--team', 't');
    expect(second.code, second.stderr).toBe(4);
    expect(second.stderr).toContain('TEAMMATE_RUNNING');
    expect(second.stderr).toContain('a mailroom mcp server');
    expect(second.stdout).not.toContain('started');
    expect(await openFsStores(dir.path).host.readProcessRecord('t', 'bob')).toBeUndefined();
  });
});

describe('mailroom run and mailroom agent', () => {
  it('refuses an agent for a member the run hosts, naming the in-process runtime', async () => {
    const file = join(dir.path, 'team.json');
    await writeFile(file, JSON.stringify({ team: 'hosted', members: [{ name: 'ann' }], tasks: [{ subject: 'Wait', command: 'sleep 3' }] }));
    const root = join(dir.path, 'run-root');
    const run = startCli(['run', file, '--root', root, '--workdir', join(dir.path, 'work')], cleanEnv());
    clis.push(run);
    await until(async () => (await openFsStores(root).team.readTask('hosted', '1').catch(() => undefined))?.status === 'in_progress', 20_000, 'ann to start the task');
    const agent = await mailroom(root, 'agent', 'ann', '--team', 'hosted');
    expect(agent.code, agent.stderr).toBe(4);
    expect(agent.stderr).toContain('TEAMMATE_RUNNING');
    expect(agent.stderr).toContain('an in-process runtime (mailroom run, or a library host)');
    expect(agent.stderr).toContain(`process ${run.proc.pid}`);
    expect(await run.exited).toBe(0);
  });
});

describe('in-process readers', () => {
  it('refuses InProcessHost.add of a member it already runs, and a second host or runTeammate for it', async () => {
    const model = functionModel(() => ({ content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' }));
    const host = await InProcessHost.open({ root: openFsStores(dir.path), team: 't' });
    const other = await InProcessHost.open({ root: openFsStores(dir.path), team: 't' });
    try {
      const running = host.add('alice', model);
      await running.ready;
      expect(() => host.add('alice', model)).toThrow(expect.objectContaining({ code: 'TEAMMATE_RUNNING' }));
      const second = other.add('alice', model);
      await expect(second.ready).rejects.toMatchObject({ code: 'TEAMMATE_RUNNING', details: { holder: { kind: 'in-process', pid: process.pid } } });
      await expect(second.done).rejects.toMatchObject({ code: 'TEAMMATE_RUNNING' });
      await expect(runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: AbortSignal.timeout(5_000) })).rejects.toMatchObject({ code: 'TEAMMATE_RUNNING' });
      const texts = await messages(5);
      await until(() => model.requests.some((r) => texts.every((t) => JSON.stringify(r.messages).includes(t))), 10_000, 'alice to get the messages');
      const delivered = model.requests.flatMap((r) => JSON.stringify(r.messages.at(-1)).match(/m\d/g) ?? []);
      expect(delivered.filter((t) => texts.includes(t)).sort()).toEqual([...texts].sort());
    } finally {
      await host.close();
      await other.close();
    }
    const again = await InProcessHost.open({ root: openFsStores(dir.path), team: 't' });
    try {
      await again.add('alice', model).ready; // the claim went with the first host
    } finally {
      await again.close();
    }
  });
});
