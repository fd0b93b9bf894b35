/**
 * A teammate killed holding path leases (issue 26 item 2): a real `mailroom agent` process running a
 * scripted model, killed with SIGKILL. While it is dead but not yet swept its lease still holds;
 * the sweep after the grace releases it once (two sweeps at once), journals the release with why,
 * and the lead's message about the dead member names the lease it lost. Time is moved forward
 * through the sweep's clock, not waited out.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { acquireLease, listLeases } from '../../src/core/leases/path-leases.js';
import { DEAD_GRACE_MS, sweepDeadMembers } from '../../src/core/members/dead-members.js';
import { STALL_BOUND_MS } from '../../src/core/members/liveness.js';
import { readInbox } from '../../src/core/messages/inbox-read.js';
import { showTeam } from '../../src/core/teams/team-lifecycle.js';
import { DEFAULT_READER_TTL_MS } from '../../src/domain/reader-claims.js';
import { openFsStores } from '../../src/store/open.js';
import { isAlive } from '../../src/runtime/process/kill.js';
import { spawnProcessTeammate } from '../../src/runtime/process/spawn.js';
import { until } from '../helpers/runtime.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const pids: number[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't');
});
afterEach(async () => {
  for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

it('a dead teammate\'s lease holds until the sweep releases it, once, and the lead is told which', async () => {
  const script = join(dir.path, 'slow.yaml');
  await writeFile(script, '- text: thinking for a long time\n  delayMs: 600000\n');
  const { process: started } = await spawnProcessTeammate({ root: openFsStores(dir.path), team: 't', name: 'bob', model: `scripted:${script}`, cwd: dir.path, prompt: 'Refactor the store.' });
  pids.push(started.pid);
  await until(async () => (await showTeam({ root: openFsStores(dir.path), team: 't' })).members.find((m) => m.name === 'bob')?.presence.state === 'working', 15_000, 'bob working');
  const lease = await acquireLease({ root: openFsStores(dir.path), team: 't', as: 'bob', paths: ['src/store/**'], reason: 'store refactor', repo: dir.path });

  process.kill(started.pid, 'SIGKILL');
  await until(() => !isAlive(started.pid), 5_000, 'bob to die');
  const store = openFsStores(dir.path);
  const lastBeatAt = (await store.team.readClaims('t')).find((c) => c.member === 'bob')!.lastBeatAt;
  await until(async () => (await showTeam({ root: openFsStores(dir.path), team: 't' })).members.find((m) => m.name === 'bob')?.presence.state === 'dead', 30_000, 'bob dead');
  // Dead, not swept: the lease still holds.
  await expect(acquireLease({ root: openFsStores(dir.path), team: 't', paths: ['src/store/a.ts'], repo: dir.path })).rejects.toMatchObject({ code: 'LEASE_HELD' });

  const later = () => lastBeatAt + DEFAULT_READER_TTL_MS + DEAD_GRACE_MS + STALL_BOUND_MS; // a sweep with no presence of its own waits out the stall bound too
  const sweeps = await Promise.all(['sweeper-a', 'sweeper-b'].map((by) => sweepDeadMembers({ root: openFsStores(dir.path), team: 't', now: later, by })));
  expect(sweeps.flat().flatMap((s) => s.leases.map((l) => l.id))).toEqual([lease.id]);
  expect(await listLeases({ root: openFsStores(dir.path), team: 't' })).toEqual([]);

  const told = (await readInbox({ root: openFsStores(dir.path), team: 't' })).messages.filter((m) => m.entry.from === 'bob');
  expect(told).toHaveLength(1);
  expect(told[0]!.entry.text).toContain('presumed dead');
  expect(told[0]!.entry.text).toContain(`${lease.id} exclusive on src/store/** ("store refactor")`);
  expect(told[0]!.entry.summary).toContain('1 lease(s) released');
  const { events } = await store.team.readEvents('t');
  expect(events.filter((e) => e.kind === 'lease' && e.action === 'released' && e.id === lease.id)).toMatchObject([{ holder: 'bob', why: expect.stringContaining('dead'), actor: expect.stringMatching(/^sweeper-/) }]);
  // The lease is free now.
  expect((await acquireLease({ root: openFsStores(dir.path), team: 't', paths: ['src/store/a.ts'], repo: dir.path })).holder).toBe('team-lead');
}, 90_000);
