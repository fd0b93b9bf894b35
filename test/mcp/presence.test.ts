/**
 * An MCP member's presence (issue 10): list_members gives each member `presence`; a call makes the
 * member `working` (isActive true); a wait_for_message that times out makes it `idle` (isActive
 * false) and sends the lead one idle_notification — not a second one for the next empty wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, readInbox } from '../../src/index.js';
import { openFsStores } from '../../src/store/open.js';
import { parseMessageText } from '../../src/protocol/structured.js';
import { dataOf, startMcpMember, type McpMember } from '../helpers/mcp-client.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

interface Listed { members: { name: string; isActive?: boolean; presence: { state: string; pid?: number; lastBeatAt?: number } }[] }

describe('mailroom mcp: presence', () => {
  let dir: TempDir;
  let codex: McpMember;
  const me = async () => dataOf<Listed>(await codex.call('list_members')).members.find((m) => m.name === 'codex')!;
  const isActive = async () => (await openFsStores(dir.path).team.readConfig('p')).members.find((m) => m.name === 'codex')!.isActive;
  const idleNotices = async () =>
    (await readInbox({ root: openFsStores(dir.path), team: 'p', agent: 'team-lead' })).messages.filter((m) => {
      const p = parseMessageText(m.entry.text);
      return p.kind === 'structured' && p.message.type === 'idle_notification' && m.entry.from === 'codex';
    });

  beforeAll(async () => {
    dir = await makeTempDir('mailroom-mcp-presence-');
    await createTeam({ root: openFsStores(dir.path), team: 'p' });
    codex = await startMcpMember(['--root', dir.path, '--team', 'p', '--as', 'codex']);
  });
  afterAll(async () => {
    await codex?.close();
    await dir?.cleanup();
  });

  it('is working while it calls tools, with the server pid and a recent beat', async () => {
    const row = await me();
    expect(row.presence.state).toBe('working');
    expect(row.presence.pid).toBeGreaterThan(0);
    expect(Date.now() - (row.presence.lastBeatAt ?? 0)).toBeLessThan(15_000);
    expect(await isActive()).toBe(true);
    const lead = dataOf<Listed>(await codex.call('list_members')).members.find((m) => m.name === 'team-lead')!;
    expect(lead.presence).toEqual({ state: 'unknown' }); // no mailroom runtime beats for the lead: the same word as team show and watch (issue 23)
  });

  it('a timed-out wait: idle, isActive false, one idle_notification to the lead', async () => {
    expect(dataOf<{ timedOut: boolean }>(await codex.call('wait_for_message', { timeout_ms: 100 })).timedOut).toBe(true);
    expect(await isActive()).toBe(false);
    const store = openFsStores(dir.path).team;
    expect((await store.readClaims('p')).find((c) => c.member === 'codex')?.state).toBe('idle');
    expect(await idleNotices()).toHaveLength(1);
    expect(dataOf<{ timedOut: boolean }>(await codex.call('wait_for_message', { timeout_ms: 100 })).timedOut).toBe(true);
    expect(await idleNotices()).toHaveLength(1);
  });
});
