/**
 * A name that rejoins gets its dead letters back, unread (docs/decisions.md "A name that rejoins
 * gets its dead letters back"). New-user trial: `message show` then still said "dead-lettered" for
 * a message unread again in the inbox, and `dead-letter retry` of it said only "No dead letter".
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-dead-letter-rejoin-');
  await makeTeam(tmp.path, 't', ['alice']);
});
afterEach(() => tmp.cleanup());

it('a redelivered dead letter is shown as unread in the inbox, and retrying it says where it went', async () => {
  const sent = JSON.parse((await mailroomOk(tmp.path, 'team', 'send', 'alice', 'hello', '--json')).stdout) as { entry?: { msg_id?: string }; msg_id?: string };
  const id = (sent.entry?.msg_id ?? sent.msg_id)!;
  await mailroomOk(tmp.path, 'team', 'stop', 'alice', '--force');
  expect(JSON.parse((await mailroomOk(tmp.path, 'message', 'show', id, '--json')).stdout)).toMatchObject({ state: 'dead-lettered', dead_letter: true });
  await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
  const shown = JSON.parse((await mailroomOk(tmp.path, 'message', 'show', id, '--json')).stdout) as { state: string; to: string };
  expect(shown.to).toBe('alice');
  expect(shown.state).not.toBe('dead-lettered');
  expect(shown.state).not.toBe('read');
  const retry = await mailroom(tmp.path, 'dead-letter', 'retry', id);
  expect(retry.code).toBe(3);
  expect(retry.stderr).toContain('its recipient rejoined and got it back unread');
  expect(retry.stderr).toContain(`message show ${id}`);
});
