/**
 * The `worker` model (default, offline, deterministic, no LLM). It drives the same team tools an
 * LLM would: TaskClaim the next ready task → RunTaskCommand (its `metadata.command`) → on exit 0
 * TaskUpdate completed, then SendMessage the lead either way → claim the next one, until none is
 * ready; then it reads the board (TaskList) and ends the turn saying what it waits for — the open
 * tasks the rest wait on, and who has them — or that every task is completed (the runtime sends
 * idle_notification, and wakes it when a task becomes ready: ../work.ts). It approves every
 * shutdown_request. A claimed task without a command is completed as a no-op.
 */
import { latestUserTurn, namedResults, resultJson, shutdownRequestIn, type NamedResult } from './request-view.js';
import type { Model, ModelRequest, ModelResponse, ToolUseBlock } from './types.js';

/** Creates the worker model. */
export function createWorkerModel(): Model {
  let calls = 0;
  const id = () => `toolu_worker_${++calls}`;
  return { id: 'worker', call: async (request) => decide(request, id) };
}

function decide(request: ModelRequest, id: () => string): ModelResponse {
  const lead = request.teammate?.lead ?? 'team-lead';
  const shutdown = shutdownRequestIn(latestUserTurn(request));
  if (shutdown) return tools(use(id, 'SendMessage', { to: shutdown.from, message: { type: 'shutdown_response', request_id: shutdown.requestId, approve: true } }));
  const results = namedResults(request);
  const claim = results.find((r) => r.name === 'TaskClaim');
  if (claim) return afterClaim(claim, lead, id);
  const run = results.find((r) => r.name === 'RunTaskCommand');
  if (run) return afterRun(run, lead, id);
  const list = results.find((r) => r.name === 'TaskList');
  if (list) return afterList(list);
  return tools(use(id, 'TaskClaim', {}));
}

function afterClaim(claim: NamedResult, lead: string, id: () => string): ModelResponse {
  if (claim.result.isError) return done(`Could not claim a task: ${claim.result.content}`);
  const task = resultJson(claim)?.claimed as { id: string; subject: string; metadata?: Record<string, unknown> } | null | undefined;
  // Nothing ready: read the board to say what is left (a new user read "No ready task left." while tasks were only blocked).
  if (!task) return tools(use(id, 'TaskList', {}));
  if (typeof task.metadata?.command === 'string') return tools(use(id, 'RunTaskCommand', { taskId: task.id }));
  return tools(
    use(id, 'TaskUpdate', { taskId: task.id, status: 'completed' }),
    use(id, 'SendMessage', { to: lead, summary: `#${task.id} done (no command)`, message: `Completed #${task.id} "${task.subject}": nothing to run.` }),
  );
}

/** A task as TaskList shows it (src/tools/entries/tasks.ts `compact`): the fields read here. */
interface ListedTask {
  id: string;
  status: string;
  owner?: string;
  openBlockers?: string[];
  metadata?: Record<string, unknown>;
}

/** The end of a turn with nothing to claim: what the open tasks wait on, or that all are completed. */
function afterList(list: NamedResult): ModelResponse {
  let tasks: ListedTask[] | undefined;
  try {
    const parsed: unknown = list.result.isError ? undefined : JSON.parse(list.result.content);
    tasks = Array.isArray(parsed) ? (parsed as ListedTask[]) : undefined;
  } catch {
    tasks = undefined;
  }
  if (!tasks) return done('No task is ready for me, and I could not read the board to see why.');
  const open = tasks.filter((t) => t.status !== 'completed' && t.metadata?._internal !== true);
  if (open.length === 0) return done(tasks.length === 0 ? 'The task board is empty: nothing for me to do.' : 'Every task is completed: nothing left for me to do.');
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const who = (id: string) => {
    const t = byId.get(id);
    return t?.owner ? `#${id} (${t.owner})` : `#${id}`;
  };
  const waiting = open.filter((t) => t.status === 'pending' && (t.openBlockers?.length ?? 0) > 0);
  if (waiting.length === 0) return done(`Nothing left for me to claim: ${open.map((t) => who(t.id)).join(', ')} ${open.length === 1 ? 'is' : 'are'} taken.`);
  // What the chain waits on first: the blockers that are not waiting themselves (#3 waiting on #2 waiting on #1: #1).
  const waitingIds = new Set(waiting.map((t) => t.id));
  const all = [...new Set(waiting.flatMap((t) => t.openBlockers ?? []))];
  const first = all.filter((b) => !waitingIds.has(b));
  const blockers = first.length > 0 ? first : all;
  return done(`Nothing is ready for me yet: ${waiting.map((t) => `#${t.id}`).join(', ')} ${waiting.length === 1 ? 'waits' : 'wait'} on ${blockers.map(who).join(', ')}. I will claim the next task once it is unblocked.`);
}

function afterRun(run: NamedResult, lead: string, id: () => string): ModelResponse {
  const out = resultJson(run);
  // A refused outcome because the task was taken back while we ran it (TASK_FENCED: "no longer
  // owns task", src/domain/task-fence.ts): the runtime told the lead already; stop here.
  if (!out && run.result.isError && /no longer owns task/.test(String(run.result.content))) return done('I lost this task; its current owner carries it on.');
  if (!out) return tools(use(id, 'SendMessage', { to: lead, summary: 'Could not run a task', message: `Could not run the task: ${run.result.content}` }));
  const { taskId, subject, exitCode, durationMs } = out as { taskId: string; subject: string; exitCode: number; durationMs: number };
  if (exitCode === 0) {
    return tools(
      use(id, 'TaskUpdate', { taskId, status: 'completed' }),
      use(id, 'SendMessage', { to: lead, summary: `#${taskId} done in ${durationMs} ms`, message: `Completed #${taskId} "${subject}": exit 0 in ${durationMs} ms.` }),
    );
  }
  const tail = lastLine(String(out.outputTail ?? ''));
  const message = `Task #${taskId} "${subject}" failed: exit ${exitCode}${out.timedOut ? ' (timed out)' : ''} after ${durationMs} ms${tail ? `: ${tail}` : ''}. It stays in progress with me; see its metadata.outputTail.`;
  return tools(use(id, 'SendMessage', { to: lead, summary: `#${taskId} failed (exit ${exitCode})`, message }));
}

function use(id: () => string, name: string, input: Record<string, unknown>): ToolUseBlock {
  return { type: 'tool_use', id: id(), name, input };
}

function tools(...calls: ToolUseBlock[]): ModelResponse {
  return { content: calls, stopReason: 'tool_use' };
}

function done(text: string): ModelResponse {
  return { content: [{ type: 'text', text }], stopReason: 'end_turn' };
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 200);
}
