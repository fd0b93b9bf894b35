/**
 * watch's roster takes a mailroom member's state from its presence (issue 10), not from messages:
 * a message from alice no longer makes her `working`; a registered member nothing runs is
 * `stopped`; a claim without a beat for three intervals is `dead`. Claude Code's own members (no
 * claim, no member record) keep the message rule.
 */
import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../../src/core/live/snapshot.js';
import type { PresenceClaim } from '../../../src/domain/presence.js';
import { DEFAULT_READER_TTL_MS } from '../../../src/domain/reader-claims.js';
import type { MemberRecord } from '../../../src/protocol/member-record.js';
import type { TeamConfig } from '../../../src/protocol/config.js';
import { messageView } from '../../helpers/snapshots.js';

const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);
const member = (name: string) => ({ agentId: `${name}@t`, name, joinedAt: 1, tmuxPaneId: '', subscriptions: [], cwd: '/' });
const config = { name: 't', createdAt: 1, leadAgentId: 'team-lead@t', members: [member('team-lead'), member('alice'), member('bob'), member('carol'), member('claude')] } as unknown as TeamConfig;
const record = (name: string) => ({ team: 't', name, agentId: `${name}@t`, joinedAt: 1, runtime: 'process' }) as unknown as MemberRecord;
const claim = (name: string, state: 'working' | 'idle', lastBeatAt: number): PresenceClaim => ({ member: name, state, lastBeatAt, ttlMs: DEFAULT_READER_TTL_MS, host: 'h', pid: 42, kind: 'agent' });

describe('snapshot presence', () => {
  it('uses presence for mailroom members and the message rule for the others', () => {
    const sent = messageView('alice', 'team-lead', 'on it', new Date(NOW - 1000).toISOString());
    const fromClaude = messageView('claude', 'team-lead', 'on it', new Date(NOW - 1000).toISOString());
    const snap = buildSnapshot({
      team: 't',
      config,
      exists: true,
      messages: [sent, fromClaude],
      tasks: [],
      departed: new Map(),
      records: new Map(['alice', 'bob', 'carol'].map((n) => [n, record(n)])),
      claims: [claim('alice', 'idle', NOW - 1000), claim('carol', 'working', NOW - DEFAULT_READER_TTL_MS - 1)],
      now: NOW,
    });
    const row = (n: string) => snap.members.find((m) => m.name === n)!;
    expect(row('alice')).toMatchObject({ state: 'idle', presence: { state: 'idle', pid: 42, host: 'h' } });
    expect(row('bob')).toMatchObject({ state: 'stopped', presence: { state: 'stopped' } });
    expect(row('carol').state).toBe('dead');
    expect(row('carol').stateReason).toContain('no heartbeat since');
    expect(row('claude')).toMatchObject({ state: 'working' });
    expect(row('claude').presence).toBeUndefined();
  });
});
