import { describe, expect, it } from 'vitest';
import { deriveMemberState, type SignalMessage } from '../../../src/core/members/member-state.js';
import { parseMessageText } from '../../../src/protocol/structured.js';

const at = (s: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, s)).toISOString();
const msg = (s: number, text: string | Record<string, unknown>, status: SignalMessage['status'] = 'read'): SignalMessage => {
  const raw = typeof text === 'string' ? text : JSON.stringify(text);
  return { entry: { timestamp: at(s) }, parsed: parseMessageText(raw), status };
};
const idle = (s: number) => msg(s, { type: 'idle_notification', from: 'alice', timestamp: at(s) });
const permission = (s: number, id: string) => msg(s, { type: 'permission_request', request_id: id, agent_id: 'alice', tool_name: 'Bash', tool_use_id: 't', description: 'ls', input: {}, permission_suggestions: [] });
const granted = (s: number, id: string) => msg(s, { type: 'permission_response', request_id: id, subtype: 'success', response: {} });

describe('deriveMemberState', () => {
  it('is unknown with no signal at all', () => {
    expect(deriveMemberState({ inRoster: true, sent: [], received: [msg(1, 'hi', 'unread')] })).toEqual({ state: 'unknown', reason: 'nothing sent or delivered yet' });
  });

  it('is left when out of the roster (not stopped: it cannot be resumed), stopped when its last message approves a shutdown', () => {
    expect(deriveMemberState({ inRoster: false, isActive: true, sent: [], received: [] })).toEqual({ state: 'left', reason: 'no longer in the roster' });
    const approved = msg(5, { type: 'shutdown_approved', requestId: 'shutdown-1@alice', from: 'alice', timestamp: at(5) });
    expect(deriveMemberState({ inRoster: true, isActive: true, sent: [idle(1), approved], received: [] }).state).toBe('stopped');
  });

  it('takes isActive over messages when the config has it', () => {
    expect(deriveMemberState({ inRoster: true, isActive: true, sent: [idle(9)], received: [] })).toEqual({ state: 'working', reason: 'isActive is true' });
    expect(deriveMemberState({ inRoster: true, isActive: false, sent: [msg(9, 'working on it')], received: [] }).state).toBe('idle');
  });

  it('is idle after an idle notice, and working again once a later message was delivered to it', () => {
    expect(deriveMemberState({ inRoster: true, sent: [msg(1, 'done'), idle(2)], received: [msg(1, 'go')] }).state).toBe('idle');
    expect(deriveMemberState({ inRoster: true, sent: [idle(2)], received: [msg(3, 'next', 'unread')] }).state).toBe('idle');
    expect(deriveMemberState({ inRoster: true, sent: [idle(2)], received: [msg(3, 'next', 'read')] }).state).toBe('working');
  });

  it('waits on an unanswered request sent after its last idle notice, even with isActive', () => {
    const waiting = deriveMemberState({ inRoster: true, isActive: true, sent: [idle(1), permission(2, 'perm-2')], received: [] });
    expect(waiting).toEqual({ state: 'waiting', reason: 'waiting for an answer to permission request perm-2' });
    expect(deriveMemberState({ inRoster: true, sent: [permission(2, 'perm-2')], received: [granted(3, 'perm-2')] }).state).toBe('working');
    expect(deriveMemberState({ inRoster: true, sent: [permission(2, 'perm-2'), idle(4)], received: [] }).state).toBe('idle');
  });
});
