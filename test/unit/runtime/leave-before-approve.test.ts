/**
 * On an approved shutdown a teammate leaves config.json first, then writes `shutdown_approved`
 * (issue 10 item 5): a lead that deletes the team on reading the approval (Claude Code's
 * TeamDelete counts members still in the roster) is never refused. The journal's order shows it:
 * `member left` before the approval message reaches the lead.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { requestShutdown } from '../../../src/core/members/shutdown.js';
import { openFsStores } from '../../../src/store/open.js';
import { InProcessHost } from '../../../src/runtime/host.js';
import { createWorkerModel } from '../../../src/runtime/models/worker.js';
import { until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
let host: InProcessHost;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
  host = await InProcessHost.open({ root: openFsStores(dir.path), team: 't', pollMs: 200 });
});
afterEach(async () => {
  await host.close();
  await dir.cleanup();
});

it('leaves the roster before the approval reaches the lead', async () => {
  const alice = host.add('alice', createWorkerModel(), { takesTasks: false });
  await alice.ready;
  await requestShutdown({ root: openFsStores(dir.path), team: 't', to: 'alice' });
  expect((await alice.done).reason).toBe('shutdown');
  const { events } = await openFsStores(dir.path).team.readEvents('t');
  const left = events.findIndex((e) => e.kind === 'member' && e.action === 'left' && e.name === 'alice');
  const approved = await until(() => {
    const i = events.findIndex((e) => e.kind === 'message' && e.to === 'team-lead' && e.entry.text.includes('"shutdown_approved"'));
    return i >= 0 ? i : undefined;
  }, 2_000, 'the approval in the journal');
  expect(left).toBeGreaterThanOrEqual(0);
  expect(left).toBeLessThan(approved);
});
