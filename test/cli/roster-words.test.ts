/**
 * What the roster says of a member mailroom knows little about, in every view (a new user's trial,
 * session 16): a lead with no recorded model and no heartbeat read "lead, unknown — unknown — no
 * mailroom heartbeat" in `team show`; a member that left the team read "stopped" in `watch`, as if
 * it could be resumed. Now the placeholder model is left out, the missing heartbeat is said once
 * with its cause, and a member that left is `left`. Real CLI processes on a real files store.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { cleanEnv, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
let child: LineChild | undefined;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-roster-words-');
  await mailroomOk(tmp.path, 'team', 'create', 'demo');
  await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
  await mailroomOk(tmp.path, 'team', 'spawn', 'bob');
  await mailroomOk(tmp.path, 'team', 'stop', 'bob');
});
afterEach(async () => {
  await child?.stop();
  child = undefined;
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

it('watch says a member that left is left, not stopped', async () => {
  child = startCli(['--root', tmp.path, 'watch', 'demo'], cleanEnv());
  const ready = await child.waitForLine((l) => l.includes('watching team'));
  expect(ready).toMatch(/\(team-lead unknown, alice stopped, bob left\)/);
});

it('watch --json gives a member that left the state left', async () => {
  child = startCli(['--root', tmp.path, 'watch', 'demo', '--json'], cleanEnv());
  const ready = JSON.parse(await child.waitForLine((l) => l.includes('"ready"'))) as { members: Array<{ name: string; state: string }> };
  expect(ready.members.find((m) => m.name === 'bob')).toEqual({ name: 'bob', state: 'left', unread: 0 });
  expect(ready.members.find((m) => m.name === 'alice')?.state).toBe('stopped');
});
