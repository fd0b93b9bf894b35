/**
 * `mailroom mcp --as Dave` when the team has a member "dave": the agent meant that member, so the
 * refusal names it (MEMBER_EXISTS, as joinTeam documents for a name that differs only in case)
 * instead of INVALID_NAME suggesting a new member "dave-2" (new-user trial, session 18). Nothing is
 * registered. Real CLI process.
 */
import { describe, expect, it } from 'vitest';
import { cliRootForFile, mailroom, snapshotBytes } from '../helpers/store-files.js';

const root = cliRootForFile(['team', 'create', 'demo'], ['team', 'spawn', 'dave']);

describe('mailroom mcp --as <a member name in another case>', () => {
  it('names the member meant and how to act as it; exit 4; nothing registered', async () => {
    const before = await snapshotBytes(root());
    const run = await mailroom(root(), 'mcp', '--team', 'demo', '--as', 'Dave');
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toBe('mailroom: MEMBER_EXISTS: Team "demo" already has a member named "dave" (names are lowercase). To act as it, run with --as dave.\n');
    expect(await snapshotBytes(root())).toEqual(before);
  });

  it('a name no member has in any case is still refused with the new-name rule', async () => {
    const run = await mailroom(root(), 'mcp', '--team', 'demo', '--as', 'Erin');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('INVALID_NAME: Invalid agent name "Erin"');
    expect(run.stderr).toContain('Try "erin"');
  });
});
