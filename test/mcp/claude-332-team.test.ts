/**
 * `mailroom mcp` on teams written by the real Claude Code 2.1.332 (copies of its snapshots): the
 * team resolves without `--team` even while the client is removing it (a `*.deleted-<uuid>`
 * tombstone beside it, snapshot 5), and an existing member is taken over without a write: the only
 * file the server adds is its own reader claim, in mailroom's directory (one reader per member,
 * docs/runtime.md), which Claude Code never reads.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { REFERENCE_2_1_332, copyTree, snapshotBytes } from '../helpers/store-files.js';
import type { TempDir } from '../helpers/temp-dir.js';

describe('mailroom mcp on a Claude Code 2.1.332 team', () => {
  let dir: TempDir;
  let member: McpMember | undefined;
  beforeEach(async () => (dir = await copyTree(join(REFERENCE_2_1_332, '5-cleanup-tombstone'))));
  afterEach(async () => {
    await member?.close();
    member = undefined;
    await dir.cleanup();
  });

  it('resolves the one live team next to its tombstone and lists its members', async () => {
    const before = await snapshotBytes(dir.path);
    member = await startMcpMember(['--root', dir.path, '--as', 'team-lead']);
    const data = dataOf<{ team: string; members: { name: string }[] }>(await member.call('list_members'));
    expect(data.team).toBe('session-0e1bac49');
    expect(data.members.map((m) => m.name)).toEqual(['team-lead']);
    const after = await snapshotBytes(dir.path);
    const claim = 'mailroom/readers/session-0e1bac49/team-lead.json';
    expect(JSON.parse(after.get(claim)!.toString('utf8'))).toMatchObject({ member: 'team-lead', kind: 'mcp' });
    after.delete(claim);
    expect(after).toEqual(before);
  });
});
