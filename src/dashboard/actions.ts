/**
 * What the dashboard page can do, each through the same use case (and the same policy check) as
 * the CLI verb it mirrors: `team send`, `team ask`, `approve`/`deny`, `task add`, `task update
 * --add-blocked-by`, `team stop`, `team resume`, `dead-letter retry`. The page acts as the lead, or
 * as the member named by `mailroom dashboard --as`. A refusal comes back as data with its code and
 * the rule that refused it, never as a server error.
 */
import { z } from 'zod';
import { MailroomError } from '../errors.js';
import type { Stores } from '../store/selection.js';
import type { WireAction, WireActionResult } from './wire.js';

/** The largest action body accepted (bytes); a message larger than this is refused before parsing. */
export const MAX_ACTION_BYTES = 1_048_576;

const name = z.string().min(1).max(256);
/** The POST /api/action body (see {@link WireAction}). */
export const ActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('send'), to: name, text: z.string().min(1), summary: z.string().max(512).optional() }),
  z.object({ kind: z.literal('ask'), to: name, text: z.string().min(1), timeoutMs: z.number().int().positive().max(3_600_000).optional() }),
  z.object({ kind: z.literal('answer'), requestId: name, approve: z.boolean(), reason: z.string().max(4096).optional() }),
  z.object({ kind: z.literal('addTask'), subject: z.string().min(1).max(1024), description: z.string().max(65_536).optional(), blockedBy: z.array(z.string().regex(/^\d+$/)).max(100).optional(), owner: name.optional() }),
  z.object({ kind: z.literal('link'), id: z.string().regex(/^\d+$/), blockedBy: z.string().regex(/^\d+$/) }),
  z.object({ kind: z.literal('stop'), name }),
  z.object({ kind: z.literal('resume'), name }),
  z.object({ kind: z.literal('retry'), id: name }),
]);

/** Where actions run: the opened stores, the team, and who acts (undefined: the lead). */
export interface ActionContext {
  root: Stores;
  team: string;
  as?: string | undefined;
}

/**
 * Validates and runs one action. Never throws for a refusal or bad input: those come back as
 * `{ ok: false, code, message, rule }` (`INVALID_ARGUMENT` for a body that does not parse).
 * @throws only for faults that are not the user's (the store gone, a bug)
 */
export async function runAction(ctx: ActionContext, body: unknown): Promise<WireActionResult> {
  const parsed = ActionSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, code: 'INVALID_ARGUMENT', message: `Bad action: ${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'unreadable'}. Send {"kind": "send"|"ask"|"answer"|"addTask"|"link"|"stop"|"resume"|"retry", …}.` };
  }
  try {
    return { ok: true, message: await perform(ctx, parsed.data) };
  } catch (err) {
    if (!(err instanceof MailroomError)) throw err;
    if (err.code === 'STORE_UNAVAILABLE') throw err;
    const rule = (err.details as { rule?: unknown } | undefined)?.rule;
    return { ok: false, code: err.code, message: err.message, ...(typeof rule === 'string' ? { rule } : {}) };
  }
}

async function perform(ctx: ActionContext, a: WireAction): Promise<string> {
  const target = { root: ctx.root, team: ctx.team };
  const { requirePermitted } = await import('../core/teams/policy.js');
  switch (a.kind) {
    case 'send': {
      await requirePermitted(target, ctx.as, [{ rule: 'message', to: a.to }]);
      const { sendMessage } = await import('../core/messages/send.js');
      const sent = await sendMessage({ ...target, to: a.to, text: a.text, from: ctx.as, summary: a.summary });
      return `Sent to ${sent.to}.`;
    }
    case 'ask': {
      await requirePermitted(target, ctx.as, [{ rule: 'message', to: a.to }]);
      const { ask } = await import('../core/messages/ask.js');
      // The ask is stored before ask() starts waiting; the reply shows in the message flow,
      // threaded under it. The page does not hold a request open for the whole wait.
      const asked = ask({ ...target, to: a.to, text: a.text, from: ctx.as, timeoutMs: a.timeoutMs });
      const first = await Promise.race([asked.then(() => 'replied' as const), new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 300).unref())]);
      asked.catch(() => undefined);
      return first === 'replied' ? `${a.to} replied.` : `Asked ${a.to}; the reply will appear under the ask.`;
    }
    case 'answer': {
      const { answerRequest } = await import('../core/messages/approvals.js');
      if (!a.approve && !a.reason) throw new MailroomError('INVALID_ARGUMENT', 'A denial needs a reason: type why in the reason field.');
      const r = await answerRequest({ ...target, requestId: a.requestId, approve: a.approve, reason: a.approve ? undefined : a.reason, feedback: a.approve ? a.reason : undefined, from: ctx.as });
      return `${r.approved ? 'Approved' : 'Denied'} ${r.request.id} (${r.request.kind}); the answer went to ${r.request.from}.`;
    }
    case 'addTask': {
      await requirePermitted(target, ctx.as, [{ rule: 'createTasks' }, ...(a.owner && a.owner !== ctx.as ? [{ rule: 'assignTasks' as const, owner: a.owner }] : [])]);
      const { addTask } = await import('../core/tasks/board.js');
      const t = await addTask({ ...target, subject: a.subject, description: a.description, blockedBy: a.blockedBy, owner: a.owner, ...(ctx.as ? { as: ctx.as } : {}) });
      return `Added task #${t.id}.`;
    }
    case 'link': {
      const { updateTask } = await import('../core/tasks/update.js');
      await updateTask({ ...target, id: a.id, addBlockedBy: [a.blockedBy], ...(ctx.as ? { as: ctx.as } : {}) });
      return `#${a.id} is now blocked by #${a.blockedBy}.`;
    }
    case 'stop': {
      await requirePermitted(target, ctx.as, [{ rule: 'stopMembers', target: a.name }]);
      const { stopTeammate } = await import('../runtime/lifecycle/stop.js');
      const r = await stopTeammate({ ...target, name: a.name });
      return `${r.name}: ${r.outcome}${r.unassigned.length ? `; unassigned ${r.unassigned.map((id) => `#${id}`).join(', ')}` : ''}.`;
    }
    case 'resume': {
      const { resumeTeam } = await import('../runtime/lifecycle/resume.js');
      const r = (await resumeTeam(target)).find((m) => m.name === a.name);
      if (!r) throw new MailroomError('INVALID_ARGUMENT', `${a.name} has no process record on this machine, so there is nothing to resume here. Start it with \`mailroom team spawn ${a.name} --backend process\` on the machine that runs it.`);
      return `${r.name}: ${r.outcome}${r.pid ? ` (pid ${r.pid})` : ''}${r.error ? ` — ${r.error}` : ''}.`;
    }
    case 'retry': {
      const { retryDeadLetters } = await import('../core/messages/dead-letters.js');
      const r = await retryDeadLetters({ ...target, ids: [a.id] });
      return r.length ? `Re-sent ${r.length} dead letter${r.length === 1 ? '' : 's'}.` : 'Nothing to retry (already re-sent).';
    }
  }
}
