/**
 * Issue 22 item 1, as a property (fast-check, real files in a temp dir): under a random team
 * policy, no random sequence of send-capable use-case calls by members — send, broadcast, ask-style
 * sends, reply, structured messages (lead-only answers included), task add/update with an owner,
 * approve/deny — lets text from a member reach a recipient the policy forbids it to message, nor
 * lets a lead-only message come from anyone but the lead. Every call either succeeds or is refused
 * with an expected code (NOT_PERMITTED among them); an allowed plain send is never refused.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { reply } from '../../src/core/messages/ask.js';
import { broadcast, sendMessage, sendStructured } from '../../src/core/messages/send.js';
import { changePolicy, leadOnlyType } from '../../src/core/teams/policy.js';
import { answerRequest } from '../../src/core/messages/approvals.js';
import { updateTask } from '../../src/core/tasks/update.js';
import { addTask } from '../../src/core/tasks/board.js';
import { policyRefusal } from '../../src/domain/policy.js';
import { isMailroomError, type ErrorCode } from '../../src/errors.js';
import type { TeamPolicy } from '../../src/protocol/settings.js';
import { openFsStores } from '../../src/store/open.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

vi.setConfig({ testTimeout: 300_000 });

const LEAD = 'team-lead';
const MATES = ['a', 'b', 'c'] as const;
const EVERYONE = [LEAD, ...MATES] as const;
const mate = fc.constantFrom(...MATES);
const anyone = fc.constantFrom(...EVERYONE);
const who = fc.subarray(['a', 'b', 'c', '@lead', '*'], { minLength: 0 });

/** A random policy: per sender (and `*`) a message rule or none; assignTasks open or not. */
const policy = fc.record({
  message: fc.dictionary(fc.constantFrom('a', 'b', 'c', '*'), who, { maxKeys: 4 }),
  assignTasks: fc.option(who, { nil: undefined }),
});

const LEAD_ONLY = ['permission_response', 'plan_approval_response', 'shutdown_request', 'sandbox_permission_response', 'team_permission_update', 'mode_set_request'] as const;
const op = fc.oneof(
  fc.record({ kind: fc.constant('send' as const), from: anyone, to: anyone }),
  fc.record({ kind: fc.constant('ask' as const), from: anyone, to: anyone }),
  fc.record({ kind: fc.constant('broadcast' as const), from: anyone }),
  fc.record({ kind: fc.constant('reply' as const), from: anyone, pick: fc.nat(5) }),
  fc.record({ kind: fc.constant('structured' as const), from: anyone, to: anyone, type: fc.constantFrom(...LEAD_ONLY, 'task_assignment') }),
  fc.record({ kind: fc.constant('rawLeadOnly' as const), from: mate, to: anyone, type: fc.constantFrom(...LEAD_ONLY) }),
  fc.record({ kind: fc.constant('addTask' as const), as: anyone, owner: anyone }),
  fc.record({ kind: fc.constant('assign' as const), as: anyone, owner: anyone, pick: fc.nat(5) }),
  fc.record({ kind: fc.constant('answer' as const), as: anyone, pick: fc.nat(5), approve: fc.boolean() }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** Refusals a sequence may meet; anything else fails the property. */
const EXPECTED: ErrorCode[] = ['NOT_PERMITTED', 'MESSAGE_NOT_FOUND', 'INVALID_ARGUMENT', 'MESSAGE_INVALID', 'REQUEST_NOT_FOUND', 'TASK_NOT_FOUND', 'MEMBER_NOT_FOUND'];

let dir: TempDir;
let runs = 0;
beforeAll(async () => {
  dir = await makeTempDir('mailroom-policy-prop-');
});
afterAll(() => dir?.cleanup());

function structuredMessage(type: string, from: string, to: string, i: number): { type: string } & Record<string, unknown> {
  switch (type) {
    case 'permission_response':
      return { type, request_id: `perm-${i}-abcdefg`, subtype: 'success', response: { updated_input: {}, permission_updates: [] } };
    case 'plan_approval_response':
      return { type, requestId: `plan_approval-${i}@${to}@t`, approved: true };
    case 'sandbox_permission_response':
      return { type, requestId: `sandbox-${i}-abcdefg`, host: 'example.com', allow: true };
    case 'shutdown_request':
      return { type, reason: `op ${i}` };
    case 'team_permission_update':
      return { type, permissionUpdate: { rules: [{ toolName: 'Bash' }], behavior: 'allow' }, toolName: 'Bash', directoryPath: `/op-${i}` };
    case 'mode_set_request':
      return { type, mode: 'bypassPermissions', from };
    default:
      return { type: 'task_assignment', taskId: String(i), subject: `op ${i}`, description: `from ${from}`, assignedBy: from };
  }
}

async function run(root: string, team: string, o: Op, i: number): Promise<void> {
  const t = { root: openFsStores(root), team };
  const store = openFsStores(root).team;
  const text = `op ${i} by ${'from' in o ? o.from : o.as}`;
  switch (o.kind) {
    case 'send':
      await sendMessage({ ...t, from: o.from, to: o.to, text });
      return;
    case 'ask':
      await sendMessage({ ...t, from: o.from, to: o.to, text, extras: { reply_expected: true } });
      return;
    case 'broadcast':
      await broadcast({ ...t, from: o.from, text });
      return;
    case 'reply': {
      const asks = (await store.readInbox(team, o.from)).filter((e) => e.reply_expected === true);
      const ask = asks[o.pick % Math.max(asks.length, 1)];
      await reply({ ...t, from: o.from, inReplyTo: ask?.msg_id ?? 'none', text });
      return;
    }
    case 'structured':
      await sendStructured({ ...t, from: o.from, to: o.to, message: structuredMessage(o.type, o.from, o.to, i) });
      return;
    case 'rawLeadOnly':
      // The same object as plain text: the text path must see it too.
      await sendMessage({ ...t, from: o.from, to: o.to, text: JSON.stringify({ ...structuredMessage(o.type, o.from, o.to, i), ...(o.type === 'shutdown_request' ? { requestId: `shutdown-${i}@${o.to}`, from: o.from, timestamp: new Date().toISOString() } : {}) }) });
      return;
    case 'addTask':
      await addTask({ ...t, as: o.as, owner: o.owner, subject: text, description: text });
      return;
    case 'assign': {
      const tasks = await store.listTasks(team);
      const task = tasks[o.pick % Math.max(tasks.length, 1)];
      await updateTask({ ...t, as: o.as, id: task?.id ?? '999', owner: o.owner });
      return;
    }
    case 'answer': {
      await answerRequest({ ...t, from: o.as, requestId: `perm-${o.pick}-abcdefg`, approve: o.approve, reason: 'no' });
      return;
    }
  }
}

it('no sequence of calls by members gets text past the policy', async () => {
  await fc.assert(
    fc.asyncProperty(policy, fc.array(op, { minLength: 1, maxLength: 12 }), async (rules, ops) => {
      const team = `p${++runs}`;
      const root = dir.path;
      await makeTeam(root, team, [...MATES]);
      // Requests in the lead's inbox for the answers to aim at (sent before the policy is set).
      for (let k = 0; k < 3; k++) {
        await sendMessage({ root: openFsStores(root), team, from: MATES[k]!, to: LEAD, text: JSON.stringify({ type: 'permission_request', request_id: `perm-${k}-abcdefg`, agent_id: MATES[k]!, tool_name: 'Bash', tool_use_id: `toolu_${k}`, description: 'x', input: {}, permission_suggestions: [] }) });
      }
      const changes = [
        ...Object.entries(rules.message).map(([sender, list]) => ({ rule: `message.${sender}`, who: list })),
        ...(rules.assignTasks !== undefined ? [{ rule: 'assignTasks', who: rules.assignTasks }] : []),
      ];
      if (changes.length > 0) await changePolicy({ root: openFsStores(root), team }, changes);
      const effective: TeamPolicy = (await openFsStores(root).team.readSettings(team)).policy ?? {};
      const before = new Set<string>();
      for (const m of EVERYONE) for (const e of await openFsStores(root).team.readInbox(team, m).catch(() => [])) before.add(e.msg_id ?? e.timestamp);

      for (const [i, o] of ops.entries()) {
        try {
          await run(root, team, o, i);
        } catch (err) {
          if (!isMailroomError(err) || !EXPECTED.includes(err.code)) throw err;
          // A plain send the policy allows is never refused.
          if (o.kind === 'send' && err.code === 'NOT_PERMITTED') expect(policyRefusal(effective, o.from, LEAD, { rule: 'message', to: o.to })).toBeDefined();
        }
      }

      for (const to of EVERYONE) {
        for (const e of await openFsStores(root).team.readInbox(team, to).catch(() => [])) {
          if (before.has(e.msg_id ?? e.timestamp) || e.from === LEAD || e.from === 'system') continue;
          expect(policyRefusal(effective, e.from, LEAD, { rule: 'message', to }), `${e.from} → ${to}: ${e.text}`).toBeUndefined();
          expect(leadOnlyType(e.text), `${e.from} → ${to} carries a lead-only message`).toBeUndefined();
        }
      }
    }),
    { numRuns: 30 },
  );
});
