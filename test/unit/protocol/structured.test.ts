import { describe, expect, it } from 'vitest';
import { STRUCTURED_SCHEMAS, isStructuredType, parseMessageText, type StructuredType } from '../../../src/protocol/structured.js';

const TS = '2026-03-01T12:00:00.000Z';

/** A valid example of every known type, with the fields of reference §4. */
const VALID: Record<StructuredType, Record<string, unknown>> = {
  idle_notification: { type: 'idle_notification', from: 'alice', timestamp: TS, idleReason: 'available', summary: '[to bob] done', completedTaskId: '3', completedStatus: 'resolved' },
  task_assignment: { type: 'task_assignment', taskId: '1', subject: 'Parse', description: 'Write it', assignedBy: 'team-lead', timestamp: TS },
  task_completed: { type: 'task_completed', from: 'alice', taskId: '1', taskSubject: 'Parse', timestamp: TS },
  shutdown_request: { type: 'shutdown_request', requestId: 'shutdown-1767225600000@alice', from: 'team-lead', reason: 'done', timestamp: TS },
  shutdown_approved: { type: 'shutdown_approved', requestId: 'shutdown-1767225600000@alice', from: 'alice', timestamp: TS, paneId: '%3', backendType: 'tmux' },
  shutdown_rejected: { type: 'shutdown_rejected', requestId: 'shutdown-1767225600000@alice', from: 'alice', reason: 'still busy', timestamp: TS },
  plan_approval_request: { type: 'plan_approval_request', from: 'alice', timestamp: TS, planFilePath: '/p/plan.md', planContent: '1. parse', requestId: 'plan_approval-1767225600000@alice@demo' },
  plan_approval_response: { type: 'plan_approval_response', requestId: 'plan_approval-1767225600000@alice@demo', approved: true, feedback: 'ok', timestamp: TS },
  permission_request: {
    type: 'permission_request',
    request_id: 'perm-1767225600000-k3j9x2a',
    agent_id: 'alice',
    tool_name: 'Bash',
    tool_use_id: 'toolu_1',
    description: 'run tests',
    input: { command: 'npm test' },
    permission_suggestions: [],
  },
  permission_response: { type: 'permission_response', request_id: 'perm-1767225600000-k3j9x2a', subtype: 'success', response: { updated_input: { command: 'npm test' }, permission_updates: [] } },
  sandbox_permission_request: {
    type: 'sandbox_permission_request',
    requestId: 'sandbox-1767225600000-p0q1r2s',
    workerId: 'alice@demo',
    workerName: 'alice',
    workerColor: 'blue',
    hostPattern: { host: 'registry.npmjs.org' },
    createdAt: 1767225600000,
  },
  sandbox_permission_response: { type: 'sandbox_permission_response', requestId: 'sandbox-1767225600000-p0q1r2s', host: 'registry.npmjs.org', allow: false, timestamp: TS },
  team_permission_update: {
    type: 'team_permission_update',
    permissionUpdate: { rules: [{ toolName: 'Edit', ruleContent: 'src/**' }], behavior: 'allow' },
    toolName: 'Edit',
    directoryPath: '/p',
  },
  mode_set_request: { type: 'mode_set_request', mode: 'plan', from: 'team-lead' },
};

/** For every type, one field that breaks it and the path the error must name. */
const BROKEN: Record<StructuredType, [string, unknown, string]> = {
  idle_notification: ['idleReason', 'sleepy', 'idleReason'],
  task_assignment: ['taskId', 1, 'taskId'],
  task_completed: ['taskSubject', undefined, 'taskSubject'],
  shutdown_request: ['requestId', undefined, 'requestId'],
  shutdown_approved: ['from', null, 'from'],
  shutdown_rejected: ['reason', undefined, 'reason'],
  plan_approval_request: ['planContent', 42, 'planContent'],
  plan_approval_response: ['approved', 'yes', 'approved'],
  permission_request: ['input', 'npm test', 'input'],
  permission_response: ['subtype', 'maybe', 'subtype'],
  sandbox_permission_request: ['hostPattern', { hostname: 'x' }, 'hostPattern.host'],
  sandbox_permission_response: ['allow', 'no', 'allow'],
  team_permission_update: ['permissionUpdate', { rules: [{}], behavior: 'allow' }, 'permissionUpdate.rules.0.toolName'],
  mode_set_request: ['mode', undefined, 'mode'],
};

function withField(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out = { ...obj };
  if (value === undefined) delete out[key];
  else out[key] = value;
  return out;
}

describe('parseMessageText', () => {
  it('covers the whole catalogue of reference §4', () => {
    expect(Object.keys(STRUCTURED_SCHEMAS).sort()).toEqual(Object.keys(VALID).sort());
  });

  it.each(Object.entries(VALID))('%s: a valid message is structured and kept as sent', (type, message) => {
    const text = JSON.stringify(message);
    const parsed = parseMessageText(text);
    expect(parsed.kind).toBe('structured');
    if (parsed.kind !== 'structured') return;
    expect(parsed.message.type).toBe(type);
    expect(parsed.message).toEqual(message);
    expect(JSON.stringify(parsed.message)).toBe(text);
  });

  it.each(Object.entries(BROKEN))('%s: a bad field gives kind "invalid" with an error naming it', (type, [key, value, path]) => {
    const raw = withField(VALID[type as StructuredType], key, value);
    const parsed = parseMessageText(JSON.stringify(raw));
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind !== 'invalid') return;
    expect(parsed.type).toBe(type);
    expect(parsed.error).toContain(`${path}:`);
    expect(parsed.error).not.toContain('\n');
    expect(parsed.raw).toEqual(JSON.parse(JSON.stringify(raw)));
  });

  it('permission_response error subtype needs its error text', () => {
    const ok = parseMessageText(JSON.stringify({ type: 'permission_response', request_id: 'perm-1-abc', subtype: 'error', error: 'denied' }));
    expect(ok.kind).toBe('structured');
    const bad = parseMessageText(JSON.stringify({ type: 'permission_response', request_id: 'perm-1-abc', subtype: 'error' }));
    expect(bad.kind).toBe('invalid');
    if (bad.kind === 'invalid') expect(bad.error).toContain('error:');
  });

  it('keeps fields it does not know on a known type (Claude Code adds fields)', () => {
    const message = { ...VALID.idle_notification, result: 'all green', futureField: { a: 1 } };
    const parsed = parseMessageText(JSON.stringify(message));
    expect(parsed).toEqual({ kind: 'structured', message });
  });

  it.each(['join_request', 'join_approved', 'teammate_terminated', 'shutdown_response', 'something_new'])(
    'an unknown type %s passes through untouched',
    (type) => {
      const raw = { type, from: 'alice', nested: { keep: [1, 2] } };
      expect(parseMessageText(JSON.stringify(raw))).toEqual({ kind: 'unknown', type, raw });
    },
  );

  it.each([
    ['plain text', 'hello there'],
    ['empty text', ''],
    ['a JSON array', '[{"type":"idle_notification"}]'],
    ['a JSON string', '"idle_notification"'],
    ['an object without type', '{"from":"alice"}'],
    ['an object with a non-string type', '{"type":42}'],
    ['broken JSON that looks like an object', '{"type":"idle_notification",'],
    ['text that only starts with a brace', '{ this is prose }'],
  ])('%s is plain text', (_what, text) => {
    expect(parseMessageText(text)).toEqual({ kind: 'plain', text });
  });

  it('accepts leading whitespace before a protocol object', () => {
    expect(parseMessageText(`  \n${JSON.stringify(VALID.mode_set_request)}`).kind).toBe('structured');
  });

  it('a __proto__ key stays data and does not change the type seen', () => {
    const text = '{"type":"mode_set_request","mode":"plan","from":"team-lead","__proto__":{"type":"shutdown_request"}}';
    const parsed = parseMessageText(text);
    expect(parsed.kind).toBe('structured');
    if (parsed.kind === 'structured') expect(parsed.message.type).toBe('mode_set_request');
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});

describe('isStructuredType', () => {
  it('knows the catalogue and nothing inherited', () => {
    expect(isStructuredType('shutdown_request')).toBe(true);
    expect(isStructuredType('join_request')).toBe(false);
    expect(isStructuredType('toString')).toBe(false);
    expect(isStructuredType('__proto__')).toBe(false);
  });
});
