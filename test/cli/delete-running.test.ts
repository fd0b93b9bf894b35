/**
 * Issue 9 item 3: `team delete` deleted a team whose teammates were running (exit 0, "Deleted team
 * d") and their work was lost. Now it is refused with TEAMMATE_RUNNING listing every running member
 * (a live reader claim: `mailroom agent`, `mailroom mcp`; or a live process record), and `--force`
 * stops them first (shutdown handshake, then forced) and says where the team went. Real CLI
 * processes and the official MCP SDK client.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { addTask } from '../../src/core/tasks/board.js';
import { startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { cleanEnv, mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { openFsStores } from '../../src/store/open.js';

let dir: TempDir;
let agent: LineChild | undefined;
let bob: McpMember | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 'd' });
  await spawnMember({ root: openFsStores(dir.path), team: 'd', name: 'alice' });
  await spawnMember({ root: openFsStores(dir.path), team: 'd', name: 'bob' });
  await addTask({ root: openFsStores(dir.path), team: 'd', subject: 'Keep me' });
});
afterEach(async () => {
  await bob?.close().catch(() => undefined);
  await agent?.stop();
  agent = bob = undefined;
  await dir.cleanup();
});

it('refuses while members run, listing each; --force stops them by the handshake, then deletes and says where', async () => {
  agent = startCli(['agent', 'alice', '--root', dir.path, '--team', 'd'], cleanEnv());
  await agent.waitForLine((l) => l.includes('alice: started'));
  bob = await startMcpMember(['--root', dir.path, '--team', 'd', '--as', 'bob']);

  const refused = await mailroom(dir.path, 'team', 'delete', 'd');
  expect(refused.code, refused.stderr).toBe(4);
  expect(refused.stderr).toContain('TEAMMATE_RUNNING');
  expect(refused.stderr).toContain(`alice (agent, pid ${agent.proc.pid})`);
  expect(refused.stderr).toMatch(/bob \(mcp, pid \d+\)/);
  expect(refused.stderr).toContain('--force');
  expect(existsSync(`${dir.path}/teams/d/config.json`)).toBe(true);
  const json = await mailroom(dir.path, 'team', 'delete', 'd', '--json');
  expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'TEAMMATE_RUNNING', details: { running: [{ name: 'alice', kind: 'agent' }, { name: 'bob', kind: 'mcp' }] } } });

  await bob.close();
  bob = undefined;
  const forced = await mailroom(dir.path, 'team', 'delete', 'd', '--force', '--timeout', '10s');
  expect(forced.code, forced.stderr).toBe(0);
  expect(forced.stderr).toContain('Stopping alice');
  expect(forced.stdout).toContain('Stopped alice (approved the shutdown)');
  expect(forced.stdout).toMatch(/Deleted team d: config, inboxes, tasks and journal moved to \S+mailroom\/deleted\/d-/);
  expect(await agent.exited).toBe(0);
  expect(existsSync(`${dir.path}/teams/d`)).toBe(false);

  await mailroomOk(dir.path, 'team', 'restore', 'd');
  const tasks = JSON.parse((await mailroomOk(dir.path, 'task', 'list', '--team', 'd', '--json')).stdout) as Array<{ task: { subject: string } }>;
  expect(tasks.map((t) => t.task.subject)).toEqual(['Keep me']);
});

it('deletes a team with nobody running at once, as before', async () => {
  const run = await mailroomOk(dir.path, 'team', 'delete', 'd');
  expect(run.stdout).toContain('Deleted team d');
});
