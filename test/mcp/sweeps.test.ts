/**
 * A running `mailroom mcp` is one of the live runtimes that notice dead teammates (docs/runtime.md
 * "Dead members"): its sweeper takes back the task of a member whose reader claim stopped beating.
 * The server starts the sweeper once it has answered its first request (src/mcp/serve.ts), so
 * nothing of it runs before the client's start; this test holds it to running at all. Through the
 * real binary and the official client; liveness timings shortened with $MAILROOM_BEAT_MS (ttl and
 * grace: three beats); the test waits for the task's state, never for a time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addTask } from '../../src/core/tasks/board.js';
import { claimTask } from '../../src/core/tasks/claim.js';
import { openFsStores } from '../../src/store/open.js';
import { startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { until } from '../helpers/runtime.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const BEAT_MS = 200;
let dir: TempDir;
let member: McpMember | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await member?.close();
  member = undefined;
  await dir.cleanup();
});

describe('mailroom mcp sweeps dead members', () => {
  it('takes back the task of a teammate whose claim stopped beating, and says so on stderr', async () => {
    await makeTeam(dir.path, 't', ['bob']);
    const store = openFsStores(dir.path);
    await addTask({ root: store, team: 't', subject: 'Long job' });
    await claimTask({ root: store, team: 't', id: '1', as: 'bob' });
    // bob's reader claim, held on another machine (so only its silence can prove it dead), beats once and never again.
    await store.team.claimReader('t', 'bob', { kind: 'agent', host: 'elsewhere', pid: 1, startedAt: Date.now() }, { ttlMs: 3 * BEAT_MS });
    expect(await store.team.readTask('t', '1')).toMatchObject({ status: 'in_progress', owner: 'bob' });

    member = await startMcpMember(['--root', dir.path, '--team', 't', '--as', 'alice'], { MAILROOM_BEAT_MS: String(BEAT_MS) });
    await until(async () => (await store.team.readTask('t', '1'))?.status === 'pending', 30_000, "alice's server to take #1 back");
    expect((await store.team.readTask('t', '1'))?.owner).toBeUndefined();
    await until(() => /bob is dead/.test(member!.stderr()), 5_000, 'the sweep in the server log');
  }, 60_000);
});
