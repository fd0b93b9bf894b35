/**
 * A Claude Code 2.1.332 session lead reads its inbox only while it runs an in-process teammate (a
 * member another program adds does not count). A send to such a lead warns once — the message
 * still lands, and waits — and says nothing when the lead has its own in-process teammate, when
 * the recipient is not the lead, or for a 2.1.109 lead (which polls regardless).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leadCannotHear } from '../../src/core/messages/lead-hearing.js';
import type { MemberRecord } from '../../src/protocol/member-record.js';
import type { TeamConfig } from '../../src/protocol/config.js';
import { dataOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { REFERENCE_2_1_109, REFERENCE_2_1_332, SESSION_TEAM_2_1_332 as TEAM, copyTree, mailroom, mailroomOk, readJson } from '../helpers/store-files.js';
import type { TempDir } from '../helpers/temp-dir.js';

const config = (version: string, snapshot: string, team: string) =>
  readJson<TeamConfig>(join(version === '2.1.109' ? REFERENCE_2_1_109 : REFERENCE_2_1_332, snapshot, 'teams', team, 'config.json'));

describe('leadCannotHear', () => {
  it('is set for a 2.1.332 lead with no in-process teammate of its own', async () => {
    expect(leadCannotHear(await config('2.1.332', '1-tasks-with-dependency', TEAM))).toMatch(/^team-lead is a Claude Code 2\.1\.332 session lead with no in-process teammate/);
    expect(leadCannotHear(await config('2.1.332', '5-cleanup-tombstone', 'session-0e1bac49'))).toBeDefined();
  });

  it('is unset while the lead runs an in-process teammate, and for 2.1.109 leads', async () => {
    for (const s of ['2-teammate-spawned', '3-teammate-idle', '4-shutdown-approved']) expect(leadCannotHear(await config('2.1.332', s, TEAM))).toBeUndefined();
    for (const s of ['1-tasks-with-dependency', '5-member-removed']) expect(leadCannotHear(await config('2.1.109', s, 'compat'))).toBeUndefined();
  });

  it('does not count an in-process-shaped member mailroom registered (its record says so)', async () => {
    const c = await config('2.1.332', '2-teammate-spawned', TEAM);
    const observer = c.members[1]!;
    const record: MemberRecord = { v: 1, team: TEAM, name: 'observer', agentId: observer.agentId, joinedAt: observer.joinedAt!, runtime: 'in-process' };
    expect(leadCannotHear(c, new Map([['observer', record]]))).toBeDefined();
    expect(leadCannotHear(c, new Map([['observer', { ...record, joinedAt: 1 }]]))).toBeUndefined(); // an earlier member's record
  });
});

describe('team send to a 2.1.332 lead that cannot hear', () => {
  let dir: TempDir;
  let mcp: McpMember | undefined;
  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
    await dir.cleanup();
  });

  it('warns once on stderr, and the message still lands', async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, '1-tasks-with-dependency'));
    await mailroomOk(dir.path, 'team', 'spawn', 'helper', '--cwd', dir.path);
    const send = await mailroomOk(dir.path, 'team', 'send', 'team-lead', 'done with #1', '--from', 'helper');
    const warnings = send.stderr.split('\n').filter((l) => l.startsWith('mailroom: warning: '));
    expect(warnings).toEqual(['mailroom: warning: team-lead is a Claude Code 2.1.332 session lead with no in-process teammate: it reads its inbox only while it runs one, so this message waits in its inbox until then (nothing is lost). Have the lead spawn a teammate, or tell its user.']);
    expect((await readJson<Array<{ text: string }>>(join(dir.path, 'teams', TEAM, 'inboxes', 'team-lead.json'))).map((e) => e.text)).toEqual(['done with #1']);
    const json = await mailroomOk(dir.path, 'team', 'broadcast', 'hello all', '--from', 'helper', '--json');
    expect(json.stderr.match(/mailroom: warning: /g)).toHaveLength(1);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    expect((await mailroomOk(dir.path, 'team', 'send', 'helper', 'not the lead')).stderr).toBe('');
  });

  it('says nothing while the lead runs its own in-process teammate', async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, '3-teammate-idle'));
    const run = await mailroom(dir.path, 'team', 'send', 'team-lead', 'hi', '--from', 'observer');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('over MCP: the first send_message to that lead carries the warning, later ones do not', async () => {
    dir = await copyTree(join(REFERENCE_2_1_332, '1-tasks-with-dependency'));
    mcp = await startMcpMember(['--root', dir.path, '--as', 'codex']);
    const first = dataOf<{ warning?: string }>(await mcp.call('send_message', { to: 'team-lead', text: 'codex here' }));
    expect(first.warning).toMatch(/^team-lead is a Claude Code 2\.1\.332 session lead with no in-process teammate/);
    const second = dataOf<{ warning?: string }>(await mcp.call('send_message', { to: 'team-lead', text: 'still here' }));
    expect(second).not.toHaveProperty('warning');
  });
});
