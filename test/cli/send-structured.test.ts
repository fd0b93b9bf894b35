/**
 * `team send --structured` and the shutdown flags: every protocol type goes out with its fields in
 * Claude Code's order, `from`/`timestamp` filled in, request ids in Claude Code's shapes, and bad
 * messages refused before anything is written (reference §4).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliRun } from '../helpers/cli.js';
import { runCliBatch } from '../helpers/cli-batch.js';
import { readJson, snapshotBytes } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

type Json = Record<string, unknown>;

let tmp: TempDir;
let root: string;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-structured-');
  root = tmp.path;
  const setup = await runCliBatch([['team', 'create', 'demo'], ['team', 'spawn', 'alice']].map((c) => ['--root', root, ...c]));
  expect(setup.map((r) => r.code)).toEqual([0, 0]);
});
afterAll(() => tmp.cleanup());

const lead = (m: Json) => ['team', 'send', 'alice', '--structured', JSON.stringify(m)];
const fromAlice = (m: Json) => ['team', 'send', 'team-lead', '--from', 'alice', '--structured', JSON.stringify(m)];

/** [type, command, expected keys of the object in order, extra checks]. */
const SENDS: [string, string[], string[], (m: Json, entry: Json) => void][] = [
  ['idle_notification', fromAlice({ type: 'idle_notification', idleReason: 'available' }), ['type', 'from', 'timestamp', 'idleReason'], (m) => expect(m.from).toBe('alice')],
  ['task_assignment', lead({ type: 'task_assignment', taskId: '1', subject: 's', description: 'd', assignedBy: 'team-lead' }), ['type', 'taskId', 'subject', 'description', 'assignedBy', 'timestamp'], () => undefined],
  ['plan_approval_request', fromAlice({ type: 'plan_approval_request', planFilePath: '/p/plan.md', planContent: '1. x' }), ['type', 'from', 'timestamp', 'planFilePath', 'planContent', 'requestId'], (m, e) =>
    expect(m.requestId).toBe(`plan_approval-${Date.parse(e.timestamp as string)}@alice@demo`)],
  ['plan_approval_response', lead({ type: 'plan_approval_response', requestId: 'plan_approval-1@alice@demo', approved: true }), ['type', 'requestId', 'approved', 'timestamp'], (m) =>
    expect(m.requestId).toBe('plan_approval-1@alice@demo')],
  ['permission_request', fromAlice({ type: 'permission_request', agent_id: 'alice', tool_name: 'Bash', tool_use_id: 't1', description: 'd', input: { command: 'ls' }, permission_suggestions: [] }),
    ['type', 'request_id', 'agent_id', 'tool_name', 'tool_use_id', 'description', 'input', 'permission_suggestions'], (m, e) =>
    expect(m.request_id).toMatch(new RegExp(`^perm-${Date.parse(e.timestamp as string)}-[0-9a-z]{7}$`))],
  ['permission_response', lead({ type: 'permission_response', request_id: 'perm-1-abcdefg', subtype: 'error', error: 'no' }), ['type', 'request_id', 'subtype', 'error'], () => undefined],
  ['sandbox_permission_request', fromAlice({ type: 'sandbox_permission_request', workerId: 'alice@demo', workerName: 'alice', hostPattern: { host: 'x.org' }, createdAt: 1 }),
    ['type', 'requestId', 'workerId', 'workerName', 'hostPattern', 'createdAt'], (m, e) =>
    expect(m.requestId).toMatch(new RegExp(`^sandbox-${Date.parse(e.timestamp as string)}-[0-9a-z]{7}$`))],
  ['sandbox_permission_response', lead({ type: 'sandbox_permission_response', requestId: 'sandbox-1-abcdefg', host: 'x.org', allow: true }), ['type', 'requestId', 'host', 'allow', 'timestamp'], () => undefined],
  ['team_permission_update', lead({ type: 'team_permission_update', permissionUpdate: { rules: [{ toolName: 'Edit' }], behavior: 'allow' }, toolName: 'Edit', directoryPath: '/p' }),
    ['type', 'permissionUpdate', 'toolName', 'directoryPath'], () => undefined],
  ['mode_set_request', lead({ mode: 'plan', type: 'mode_set_request' }), ['type', 'mode', 'from'], (m) => expect(m.from).toBe('team-lead')],
  ['shutdown_request', ['team', 'send', 'alice', '--shutdown-request', '--reason', 'done'], ['type', 'requestId', 'from', 'reason', 'timestamp'], (m, e) =>
    expect(m.requestId).toBe(`shutdown-${Date.parse(e.timestamp as string)}@alice`)],
  ['shutdown_rejected', ['team', 'send', 'team-lead', '--from', 'alice', '--shutdown-reject', '--request-id', 'shutdown-1@alice', '--reason', 'busy'], ['type', 'requestId', 'from', 'reason', 'timestamp'], () => undefined],
  // alice is a member mailroom registered: no pane and no Claude Code backend, so neither is named.
  ['shutdown_approved', ['team', 'send', 'team-lead', '--from', 'alice', '--shutdown-approve', '--request-id', 'shutdown-1@alice'], ['type', 'requestId', 'from', 'timestamp'], (m) =>
    expect(m).toMatchObject({ requestId: 'shutdown-1@alice' })],
];

describe('each protocol type', () => {
  let runs: CliRun[];
  let stored: Map<string, { entry: Json; message: Json }>;
  beforeAll(async () => {
    runs = await runCliBatch(SENDS.map(([, cmd]) => ['--root', root, ...cmd, '--json']));
    stored = new Map();
    for (const inbox of ['alice', 'team-lead']) {
      for (const entry of await readJson<Json[]>(join(root, `teams/demo/inboxes/${inbox}.json`))) {
        const message = JSON.parse(entry.text as string) as Json;
        stored.set(message.type as string, { entry, message });
      }
    }
  });

  it.each(SENDS.map(([type, , keys, check], i) => [type, keys, check, i] as const))('%s', (type, keys, check, i) => {
    expect(runs[i]!.code, runs[i]!.stderr).toBe(0);
    const { entry, message } = stored.get(type)!;
    expect(Object.keys(message)).toEqual(keys);
    if ('timestamp' in message) expect(message.timestamp).toBe(entry.timestamp);
    if ('from' in message) expect(message.from).toBe(entry.from);
    check(message, entry);
  });
});

describe('refused before anything is written', () => {
  it.each([
    ['a bad field, named', lead({ type: 'idle_notification', idleReason: 'sleepy' }), 'idleReason'],
    ['a missing field, named', lead({ type: 'shutdown_rejected', requestId: 'r' }), 'reason'],
    ['an unknown type, listing the known ones', lead({ type: 'join_request' }), 'Known types'],
    ['an object whose from is not the sender', fromAlice({ type: 'idle_notification', from: 'bob' }), '"from"'],
    ['text that is not JSON', ['team', 'send', 'alice', '--structured', '{nope'], 'not valid JSON'],
    ['a rejection without a reason', ['team', 'send', 'team-lead', '--from', 'alice', '--shutdown-reject', '--request-id', 'r'], 'reason'],
  ])('%s', async (_what, cmd, says) => {
    const before = await snapshotBytes(root);
    const [run] = await runCliBatch([['--root', root, ...cmd]]);
    expect(run!.code, run!.stdout).toBe(2);
    expect(run!.stderr).toContain('MESSAGE_INVALID');
    expect(run!.stderr).toContain(says);
    expect(await snapshotBytes(root)).toEqual(before);
  });
});
