/**
 * The signature fields ride in entries as Claude Code keeps them (reference §3): after Claude Code's
 * own keys (2.1.109's and 2.1.332's keep their order), plain strings (2.1.332's entry check needs
 * only string `from`, `text`, `timestamp`), and a signed entry still verifies after a 2.1.109-style
 * mark-read (the whole array re-written, `read` flipped, unknown fields kept).
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sendMessage } from '../../../src/core/messages/send.js';
import { ControlGuard, enableSigning } from '../../../src/core/teams/signing.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { openFsStores } from '../../../src/store/open.js';
import { patchJson, teamPaths } from '../../helpers/claude-writer.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => dir.cleanup());

const CLAUDE_KEYS_2_1_332 = ['from', 'text', 'summary', 'timestamp', 'color', 'msgV', 'msg_id', 'type', 'read'];

it('signature fields come after Claude Code\'s keys, are strings, and survive its read-marking', async () => {
  const root = openFsStores(dir.path);
  await createTeam({ root, team: 'demo' });
  await enableSigning({ root, team: 'demo' });
  await spawnMember({ root, team: 'demo', name: 'bob', cwd: dir.path });
  await sendMessage({ root, team: 'demo', from: 'bob', to: 'team-lead', text: 'done', summary: 'done' });
  const path = teamPaths(dir.path, 'demo').inbox('team-lead');
  const entry = (JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>[]).at(-1)!;
  const keys = Object.keys(entry);
  expect(keys.slice(0, keys.indexOf('read') + 1)).toEqual(CLAUDE_KEYS_2_1_332.filter((k) => k in entry));
  expect(keys.slice(keys.indexOf('read') + 1)).toEqual(['mailroom_sig', 'mailroom_cert']);
  expect(typeof entry.mailroom_sig).toBe('string');
  expect(typeof entry.mailroom_cert).toBe('string');

  await patchJson<Record<string, unknown>[]>(path, (entries) => entries.map((e) => ({ ...e, read: true })));
  const seen = (await root.team.readInbox('demo', 'team-lead')).at(-1)!;
  expect(seen.read).toBe(true);
  expect((await new ControlGuard({ root, team: 'demo' }, 'team-lead').judge([seen])).verified.has(seen)).toBe(true);
});
