/**
 * `mailroom requests`, `mailroom approve <request-id>`, `mailroom deny <request-id> --reason …`:
 * the lead's side of approvals (core/messages/approvals.ts). Requests and answers are Claude Code's
 * permission, plan-approval and sandbox messages (reference §4), so they work with Claude Code
 * teammates and mailroom ones alike.
 */
import type { Argv, CommandModule } from 'yargs';
import { emit } from '../output.js';
import { teamTarget, type GlobalArgs } from '../globals.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import type { Answered, ListedRequest } from '../../core/messages/approvals.js';

interface RequestsArgs extends GlobalArgs {
  all?: boolean;
}

/** The JSON view of a request (the entry itself is left out: `message` is what was asked). */
function requestView(r: ListedRequest) {
  return { id: r.id, kind: r.kind, from: r.from, to: r.to, timestamp: r.timestamp, summary: r.summary, ...(r.answered ? { answered: true } : {}), ...(r.verified !== undefined ? { verified: r.verified } : {}), ...(r.reason !== undefined ? { reason: r.reason } : {}), message: r.message };
}

/** `requests`. */
export const requestsCommand: CommandModule<GlobalArgs, RequestsArgs> = {
  command: 'requests',
  describe: 'List open permission, plan-approval and sandbox requests sent to the lead',
  builder: (y) =>
    y
      .option('all', { type: 'boolean', describe: 'Also list requests already answered' })
      .example('$0 requests --team demo', 'What the teammates of "demo" wait for')
      .example('$0 requests --json', 'The same as JSON (id, kind, from, summary, message)') as Argv<RequestsArgs>,
  handler: async (a) => {
    const target = await teamTarget(a);
    const { listRequests } = await import('../../core/messages/approvals.js');
    const requests = await listRequests({ ...target, all: a.all === true });
    emit(a.json, requests.map(requestView), () =>
      requests.length === 0
        ? `No open requests in team ${target.team}.`
        : requests.map((r) => `${r.id}  ${r.kind}  from ${r.from}  ${r.timestamp}${r.answered ? '  (answered)' : ''}${r.reason !== undefined ? `  (failed verification: ${terminalSafe(r.reason)})` : r.verified === false ? '  (unverified)' : ''}\n  ${terminalSafe(r.summary)}`),
    );
  },
};

interface AnswerArgs extends GlobalArgs {
  id: string;
  feedback?: string;
  reason?: string;
  as?: string;
}

function answerView(r: Answered) {
  return { id: r.request.id, kind: r.request.kind, to: r.request.from, approved: r.approved, sent: { timestamp: r.sent.entry.timestamp, msg_id: r.sent.entry.msg_id }, message: JSON.parse(r.sent.entry.text) as unknown };
}

async function answer(a: AnswerArgs, approve: boolean): Promise<void> {
  const target = await teamTarget(a);
  const { answerRequest } = await import('../../core/messages/approvals.js');
  const done = await answerRequest({ ...target, requestId: a.id, approve, feedback: a.feedback, reason: a.reason, from: a.as });
  emit(a.json, answerView(done), () => `${approve ? 'Approved' : 'Denied'} ${done.request.kind} request ${done.request.id} from ${done.request.from}.`);
}

/** `approve`. */
export const approveCommand: CommandModule<GlobalArgs, AnswerArgs> = {
  command: 'approve <id>',
  describe: 'Approve a request (from `mailroom requests`): answers the teammate in Claude Code\'s shape',
  builder: (y) =>
    y
      .positional('id', { type: 'string', demandOption: true, describe: 'Request id, e.g. perm-1767225600000-k3j9x2a' })
      .option('feedback', { type: 'string', describe: 'A note for the teammate (a plan approval\'s feedback)' })
      .option('as', { type: 'string', describe: 'Answer as this member (default: the lead; Claude Code honours only team-lead)' })
      .example('$0 approve perm-1767225600000-k3j9x2a', 'Let the teammate run its command') as Argv<AnswerArgs>,
  handler: (a) => answer(a, true),
};

/** `deny`. */
export const denyCommand: CommandModule<GlobalArgs, AnswerArgs> = {
  command: 'deny <id>',
  describe: 'Deny a request, with the reason the teammate gets',
  builder: (y) =>
    y
      .positional('id', { type: 'string', demandOption: true, describe: 'Request id, e.g. perm-1767225600000-k3j9x2a' })
      .option('reason', { type: 'string', demandOption: true, describe: 'Why: the teammate reads it' })
      .option('as', { type: 'string', describe: 'Answer as this member (default: the lead)' })
      .example('$0 deny perm-1767225600000-k3j9x2a --reason "not on main; use a branch"', 'Refuse, saying why') as Argv<AnswerArgs>,
  handler: (a) => answer(a, false),
};
