/**
 * The bridge carries signatures unchanged (issue 22 item 4): a message a mailroom member of a signed
 * team sends on machine A crosses A → Redis → B with its `mailroom_sig` and `mailroom_cert` as they
 * were, and verifies on B against the lead key B pinned (the lead's public key, copied as a machine
 * pins it when it joins).
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { sendMessage } from '../../src/core/messages/send.js';
import { ControlGuard, enableSigning } from '../../src/core/teams/signing.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { openFsStores } from '../../src/store/open.js';
import { until } from '../helpers/runtime.js';
import { inboxFile, TEAM, twoMachines, type TwoMachines } from './setup.js';

let t: TwoMachines | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

it('a signed message crosses the bridge unchanged and verifies on the other side', { timeout: 60_000 }, async () => {
  t = await twoMachines({ seedA: false });
  const a = openFsStores(t.a.root);
  await createTeam({ root: a, team: TEAM });
  await enableSigning({ root: a, team: TEAM });
  await spawnMember({ root: a, team: TEAM, name: 'bob', cwd: t.a.root });
  await t.a.start();
  await t.b.start();
  await sendMessage({ root: a, team: TEAM, from: 'bob', to: 'team-lead', text: 'signed on A' });
  const sent = (await a.team.readInbox(TEAM, 'team-lead')).find((e) => e.text === 'signed on A')!;
  const onB = await until(async () => (await inboxFile(t!.b.inbox('team-lead'))).find((e) => e.text === 'signed on A'), 30_000, 'the message on B');
  expect(onB.mailroom_sig).toBe(sent.mailroom_sig);
  expect(onB.mailroom_cert).toBe(sent.mailroom_cert);
  expect(onB.msg_id).toBe(sent.msg_id);

  await mkdir(join(t.b.root, 'mailroom', 'keys', TEAM), { recursive: true, mode: 0o700 });
  await copyFile(join(t.a.root, 'mailroom', 'keys', TEAM, 'lead-pin.json'), join(t.b.root, 'mailroom', 'keys', TEAM, 'lead-pin.json'));
  const b = openFsStores(t.b.root);
  const judged = await new ControlGuard({ root: b, team: TEAM }, 'team-lead').judge([onB]);
  expect(judged.refused).toEqual([]);
  expect(judged.verified.has(onB)).toBe(true);
  // Altered on the way, it would not.
  expect((await new ControlGuard({ root: b, team: TEAM }, 'team-lead').judge([{ ...onB, text: 'changed on B' }])).refused[0]?.check).toBe('bad-signature');
});
