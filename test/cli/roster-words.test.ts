/**
 * What the roster says of a member mailroom knows little about, in every view (a new user's trial,
 * session 16): a lead with no recorded model and no heartbeat read "lead, unknown — unknown — no
 * mailroom heartbeat" in `team show`; a member that left the team read "stopped" in `watch`, as if
 * it could be resumed. Now the placeholder model is left out, the missing heartbeat is said once
 * with its cause, and a member that left is `left`. Real CLI processes on a real files store.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-roster-words-');
  await mailroomOk(tmp.path, 'team', 'create', 'demo');
  await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
  await mailroomOk(tmp.path, 'team', 'spawn', 'bob');
  await mailroomOk(tmp.path, 'team', 'stop', 'bob');
});
afterAll(async () => {
  await tmp.cleanup();
});

it('team show leaves out the unknown model and says why there is no presence', async () => {
  const show = (await mailroomOk(tmp.path, 'team', 'show')).stdout;
  const lead = show.split('\n').find((l) => l.trimStart().startsWith('team-lead'));
  expect(lead).toMatch(/^ {2}team-lead\s+lead — no heartbeat: mailroom does not run it, 0 unread$/);
  expect(show).not.toMatch(/unknown/);
  // --json keeps what is stored: the model field as recorded, the presence state as the type says.
  const json = JSON.parse((await mailroomOk(tmp.path, 'team', 'show', '--json')).stdout) as { members: Array<{ name: string; model?: string; presence: { state: string } }> };
  expect(json.members[0]).toMatchObject({ name: 'team-lead', model: 'unknown', presence: { state: 'unknown' } });
});
