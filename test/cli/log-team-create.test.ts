/**
 * `team create` journals the lead joining, at the team's creation instant and as mailroom's own
 * change, so the history starts with it: the first `mailroom log` no longer "observes" the lead
 * joining after every teammate, stamped with the time the log was read.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(() => dir.cleanup());

it('the journal of a new team starts with the lead joining at createdAt; spawns follow', async () => {
  const root = dir.path;
  const config = JSON.parse((await mailroomOk(root, 'team', 'create', 'demo', '--json')).stdout) as { createdAt: number };
  await mailroomOk(root, 'team', 'spawn', 'alice');
  const events = (await mailroomOk(root, 'log', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(events.map((e) => [e.kind, e.action, e.name, e.source])).toEqual([
    ['team', 'created', undefined, 'mailroom'],
    ['member', 'joined', 'team-lead', 'mailroom'],
    ['member', 'joined', 'alice', 'mailroom'],
  ]);
  expect(events[1]!.at).toBe(new Date(config.createdAt).toISOString());
  expect(events[1]!.agentId).toBe('team-lead@demo');
});
