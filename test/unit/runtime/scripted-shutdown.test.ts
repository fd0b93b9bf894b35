/**
 * The scripted model can answer a shutdown (issue 10 item 5): the request id is made when the lead
 * sends it, so a scripted tool call says `{{shutdown_request_id}}` and gets the id of the latest
 * shutdown_request delivered to it. A script thereby plays a complete teammate: the stop is
 * approved (not forced after the timeout) and the member leaves.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openFsStores } from '../../../src/store/open.js';
import { InProcessHost } from '../../../src/runtime/host.js';
import { createScriptedModel, SHUTDOWN_REQUEST_ID } from '../../../src/runtime/models/scripted.js';
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

it('a scripted turn approves the pending shutdown request by its placeholder', async () => {
  const model = createScriptedModel({
    turns: [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: { type: 'shutdown_response', request_id: SHUTDOWN_REQUEST_ID, approve: true } } }] }],
  });
  const alice = host.add('alice', model, { takesTasks: false });
  await alice.ready;
  expect(await host.stop('alice', { timeoutMs: 10_000 })).toEqual({ name: 'alice', outcome: 'approved' });
  expect((await alice.done).reason).toBe('shutdown');
  expect((await openFsStores(dir.path).team.readConfig('t')).members.map((m) => m.name)).toEqual(['team-lead']);
  const sent = model.requests.length;
  expect(sent).toBeGreaterThanOrEqual(1);
});
