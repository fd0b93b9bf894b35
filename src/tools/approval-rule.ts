/**
 * The `approval.commands` rule of run_task_command: a teammate spawned with `--approve commands`
 * (member record `approve`) asks the lead with a `permission_request` before a task's command runs,
 * and the call waits for the answer (core/messages/ask-lead.ts). A denial or no answer in time refuses the
 * call with NOT_PERMITTED naming the rule and the lead's reason; the model reads it as the tool's
 * error result.
 */
import { askPermission, needsApproval } from '../core/messages/ask-lead.js';
import { getTask } from '../core/tasks/board.js';
import { journalled } from '../core/live/journal-refusals.js';
import { notPermitted, type ToolRule } from './rules.js';

/** Rule name reported in refusals. */
export const COMMAND_APPROVAL_RULE = 'approval.commands';

/** Holds a RunTaskCommand call until the lead approves it, for members that need approval. */
export const commandApprovalRule: ToolRule = {
  name: COMMAND_APPROVAL_RULE,
  async check(call) {
    const ctx = call.ctx;
    if (ctx.member === ctx.lead || !(await needsApproval(ctx.target, ctx.member, 'commands'))) return;
    const task = (await getTask({ ...ctx.target, id: String(call.input.taskId) })).task;
    const command = task.metadata?.command;
    // A call the handler refuses anyway (no command, not the owner) asks nobody.
    if (typeof command !== 'string' || command.trim() === '' || task.owner !== ctx.member) return;
    ctx.log(`asking ${ctx.lead} to approve task #${task.id}'s command`);
    const answer = await askPermission({
      ...ctx.target,
      from: ctx.member,
      toolName: 'Bash',
      description: `Run task #${task.id}'s command: ${command}`,
      input: { command, description: `Task #${task.id}: ${task.subject}` },
      signal: ctx.signal,
      feed: ctx.feed,
    });
    if (!answer.approved) {
      const why = answer.timedOut ? answer.reason : `${ctx.lead} denied it: ${answer.reason ?? 'no reason given'}`;
      throw await journalled(ctx.target, ctx.member, 'command', notPermitted(COMMAND_APPROVAL_RULE, call, `Task #${task.id}'s command was not run: ${why}`, { requestId: answer.requestId }), { target: `#${task.id}`, surface: call.surface });
    }
    ctx.log(`${ctx.lead} approved task #${task.id}'s command (${answer.requestId})`);
  },
};
