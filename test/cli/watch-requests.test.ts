/**
 * `mailroom watch` lists open requests (issue 13 item 1): without a terminal, plain lines and
 * NDJSON name each open request and each answer; in a real terminal (tmux), the requests pane
 * approves with `a` and denies with `d` and a typed reason, and the answers land in the
 * requesters' inboxes in Claude Code's shapes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendStructured } from '../../src/core/messages/send.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { createTeam } from '../../src/core/teams/team-lifecycle.js';
import { BIN } from '../helpers/cli.js';
import { cleanEnv, mailroomOk } from '../helpers/store-files.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { sh, startTmux, type TmuxSession } from '../helpers/tmux.js';
import { openFsStores } from '../../src/store/open.js';

let dir: TempDir;
let child: LineChild | undefined;
let tmux: TmuxSession | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
  await createTeam({ root: openFsStores(dir.path), team: 't' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice' });
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'bob' });
  await permission('perm-1-abc');
});
afterEach(async () => {
  await child?.stop();
  child = undefined;
  await tmux?.kill();
  tmux = undefined;
  await dir.cleanup();
});

const permission = (id: string) =>
  sendStructured({
    root: openFsStores(dir.path),
    team: 't',
    from: 'alice',
    to: 'team-lead',
    message: { type: 'permission_request', request_id: id, agent_id: 'alice', tool_name: 'Bash', tool_use_id: 'toolu_1', description: 'npm publish', input: { command: 'npm publish' }, permission_suggestions: [] },
  });
const plan = () => sendStructured({ root: openFsStores(dir.path), team: 't', from: 'bob', to: 'team-lead', message: { type: 'plan_approval_request', requestId: 'plan_approval-1-def', planFilePath: '/tmp/p.md', planContent: 'Drop the users table' } });
const inbox = async (name: string) => (JSON.parse(await readFile(join(dir.path, 'teams', 't', 'inboxes', `${name}.json`), 'utf8')) as Array<{ from: string; text: string }>).map((e) => ({ from: e.from, message: JSON.parse(e.text) as Record<string, unknown> }));

describe('watch without a terminal', () => {
  it('prints each open request after the ready line, then requests as they open and are answered', async () => {
    child = startCli(['--root', dir.path, 'watch', 't'], cleanEnv());
    await child.waitForLine((l) => l.includes('watching team t'));
    const first = await child.waitForLine((l) => l.includes('request perm-1-abc'));
    expect(first).toMatch(/^\S+Z {2}request perm-1-abc \(permission\) from alice open: Bash: npm publish — `mailroom approve perm-1-abc` or `mailroom deny perm-1-abc --reason …`$/);
    await plan();
    await child.waitForLine((l) => l.endsWith('request plan_approval-1-def (plan) from bob open: plan: Drop the users table — `mailroom approve plan_approval-1-def` or `mailroom deny plan_approval-1-def --reason …`'));
    await mailroomOk(dir.path, 'approve', 'perm-1-abc', '--team', 't');
    await child.waitForLine((l) => l.endsWith('request perm-1-abc (permission) from alice answered'));
    expect(await child.stop()).toBe(0);
    expect(child.stderr()).toBe('');
  });

  it('puts the open requests in the ready record and prints request records with --json', async () => {
    child = startCli(['--root', dir.path, 'watch', 't', '--json'], cleanEnv());
    const ready = JSON.parse(await child.waitForLine((l) => l.includes('"ready"'))) as Record<string, unknown>;
    expect(ready.requests).toEqual([
      expect.objectContaining({ id: 'perm-1-abc', requestKind: 'permission', from: 'alice', to: 'team-lead', summary: 'Bash: npm publish', message: expect.objectContaining({ type: 'permission_request', tool_use_id: 'toolu_1' }) }),
    ]);
    await mailroomOk(dir.path, 'deny', 'perm-1-abc', '--reason', 'not today', '--team', 't');
    const answered = JSON.parse(await child.waitForLine((l) => l.includes('"request"'))) as Record<string, unknown>;
    expect(answered).toMatchObject({ team: 't', kind: 'request', action: 'answered', id: 'perm-1-abc', requestKind: 'permission', from: 'alice' });
    expect(await child.stop()).toBe(0);
  });
});

describe('watch in a real terminal (tmux 120×40)', () => {
  it('approves with a and denies with d and a reason from the requests pane', async () => {
    await plan();
    const command = `env TZ=UTC MAILROOM_TEAM= ${sh(process.execPath)} ${sh(BIN)} --root ${sh(dir.path)} watch t; echo "EXIT CODE $?"; sleep 30`;
    tmux = await startTmux(command);
    let screen = await tmux.waitFor((s) => s.includes('Requests (2 open)'));
    expect(screen).toMatch(/permission +alice +perm-1-abc +Bash: npm publish/);
    expect(screen).toMatch(/plan +bob +plan_approval-1-def +plan: Drop the users table/);

    await tmux.send('4');
    await tmux.send('a');
    screen = await tmux.waitFor((s) => s.includes('Requests (1 open)') && s.includes('team-lead → alice     [permission granted perm-1-abc]'));
    expect((await inbox('alice')).at(-1)).toEqual({
      from: 'team-lead',
      message: { type: 'permission_response', request_id: 'perm-1-abc', subtype: 'success', response: { updated_input: { command: 'npm publish' }, permission_updates: [] }, tool_use_id: 'toolu_1' },
    });

    await tmux.send('d');
    await tmux.waitFor((s) => s.includes('Deny plan_approval-1-def from bob'));
    await tmux.send('keep the data', { literal: true });
    await tmux.send('Enter');
    screen = await tmux.waitFor((s) => /team-lead → bob +\[plan rejected plan_approval-1-def\]/.test(s) && !s.includes('Requests ('));
    expect((await inbox('bob')).at(-1)).toMatchObject({ from: 'team-lead', message: { type: 'plan_approval_response', requestId: 'plan_approval-1-def', approved: false, feedback: 'keep the data' } });

    await tmux.send('q');
    screen = await tmux.waitFor((s) => s.includes('EXIT CODE'));
    expect(screen).toContain('EXIT CODE 0');
  });
});
