/**
 * One turn of a model-driven teammate: deliver → call the model → run its tool calls → repeat,
 * until the model stops calling tools. Unread messages are delivered before *every* model call,
 * also inside a multi-step tool loop, taken on a lease: marked read only once the request carrying
 * them succeeded, and put back (and out of the conversation) when it failed or was aborted, so a
 * crash after a failed request loses nothing (../shared/cases/04).
 */
import { ControlGuard, reportWithheld } from '../core/teams/signing.js';
import type { TeamConfig } from '../protocol/config.js';
import type { Task } from '../protocol/task.js';
import type { TeamView, ViewReads } from './delivery/team-view.js';
import { journalRefusal } from '../core/live/journal-refusals.js';
import { withheldLeadOnly } from './delivery/lead-only.js';
import { leadOnlyType } from '../core/teams/policy.js';
import type { InboxEntry } from '../protocol/inbox.js';
import { CONTROL_TYPES } from '../protocol/signature.js';
import { wrapMessages } from './delivery/wrap.js';
import { Mailbox, type Delivery } from './delivery/mailbox.js';
import type { Conversation } from './conversation.js';
import type { ContentBlock, Model, ModelRequest, ModelResponse, ToolUseBlock } from './models/types.js';
import { buildSystemPrompt, loadSystemPrompt } from './prompt.js';
import { runToolCall, teamToolSpecs } from './tools/index.js';
import type { ToolContext, TurnRecord } from './tools/types.js';
import { traceMark } from '../trace-marks.js';
import { testFreeze } from '../test-freeze.js';
import { isMailroomError } from '../errors.js';

/** Default cap on model calls in one turn. */
export const DEFAULT_MAX_STEPS = 100;

/** What a turn needs besides the conversation. */
export interface TurnDeps {
  model: Model;
  mailbox: Mailbox;
  /** Tool context without the record (each turn gets a fresh one). */
  tools: Omit<ToolContext, 'record'>;
  maxSteps?: number;
  /** Called with every request right before the model gets it. */
  onRequest?: (request: ModelRequest) => void;
  /** Called once the model was asked (its call started, not settled): a place for writes that must not go before the request. */
  onModelAsked?: () => void;
  /** The teammate's kept reads of its team (a store with view stamps): no guard or prompt read per step while they hold. */
  view?: TeamView | undefined;
  log: (line: string) => void;
}

/** What happened in a turn. */
export interface TurnOutcome {
  record: TurnRecord;
  /** Model calls made. */
  steps: number;
  /** The error that ended the turn early (model failure), if any. */
  error?: unknown;
}

/** Runs one turn. Rejects only when the teammate's signal aborts. */
export async function runTurn(conversation: Conversation, deps: TurnDeps): Promise<TurnOutcome> {
  const record: TurnRecord = {};
  const ctx: ToolContext = { ...deps.tools, record };
  const maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;
  let steps = 0;
  try {
    while (steps < maxSteps) {
      const response = await step(conversation, deps);
      if (response === undefined) break;
      steps++;
      const text = replyText(response);
      if (text !== '') record.lastText = text;
      const calls = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      if (calls.length === 0) break;
      for (const call of calls) conversation.queue(await runToolCall(call, ctx));
      deps.view?.boardMayHaveChanged();
      if (record.shutdownApproved || record.hookStop) break;
    }
    if (steps >= maxSteps) deps.log(`stopped the turn after ${maxSteps} model calls`);
    return { record, steps };
  } catch (error) {
    if (deps.tools.signal.aborted) throw error;
    return { record, steps, error };
  }
}

/** Delivers unread messages, makes one model call, records the reply. `undefined`: nothing to send. */
async function step(conversation: Conversation, deps: TurnDeps): Promise<ModelResponse | undefined> {
  const { store, team, name, lead, cwd, signal } = deps.tools;
  // The system prompt's reads (config, board) run beside the take and the checks of what it took
  // (the guard reads the team's trust): nothing of one depends on the other, and a woken
  // teammate's request goes out one store read sooner (issue 24: delivery latency). With a kept
  // view (./delivery/team-view.ts) only the board may need a read, and the config comes with the
  // guard's reads once the take says under which stamp.
  const view = deps.view;
  const board = view ? settle(view.tasks()) : undefined;
  const early = view ? undefined : settle(loadSystemPrompt(store.team, team, name));
  // Entries a woken teammate's look found, not taken yet: their request may go out before the take
  // commits, and nothing it answers acts until the take handed out exactly them (see `commitLooked`).
  let looked = deps.mailbox.takeLooked();
  let delivery: Delivery;
  try {
    delivery = looked ?? (await deps.mailbox.take());
  } catch (err) {
    await (early ?? board); // settled either way: no read left running behind a failed step
    throw err;
  }
  // A failed view read falls back to the reads of a step without one (which report their own failure).
  traceMark('step-taken');
  const known = view ? await view.at(delivery.viewStamp).catch(() => undefined) : undefined;
  if (looked && !(known && view?.openUnder(known) && !delivery.entries.some((e) => e.from !== lead && leadOnlyType(e.text) !== undefined))) {
    // Something to judge, whose refusals write (journal, a report to the lead): not before the take.
    await (early ?? board);
    deps.mailbox.hold(await deps.mailbox.take());
    return step(conversation, deps);
  }
  // Reads current as of this take: this turn's sends go under them (one round trip each on Redis).
  if (known) deps.tools.senderView?.offer({ config: known.config, settings: known.settings, viewStamp: known.stamp });
  const prompt = early ?? (known && board ? promptOf(known.config, name, board) : settle(loadSystemPrompt(store.team, team, name)));
  // In a signed team a message that fails verification is not obeyed: it is consumed (read) but never shown to the model.
  const guard = new ControlGuard({ root: store, team }, name);
  const { refused, unverified } = await guardEntries(deps, guard, delivery.entries, known);
  // In every team a lead-only message (shutdown_request, the approval answers) from anyone but the lead is not obeyed either.
  traceMark('step-guarded');
  for (const e of await withheldLeadOnly({ store, team, name, lead, log: deps.log }, delivery.entries)) refused.add(e);
  traceMark('step-lead-only');
  const delivered = refused.size === 0 ? delivery.entries : delivery.entries.filter((e) => !refused.has(e));
  const block: ContentBlock | undefined = delivered.length > 0 ? { type: 'text', text: wrapMessages(delivered, unverified) } : undefined;
  if (block) conversation.queue(block);
  if (!conversation.hasPending()) {
    // Only refused control messages came: they are consumed all the same.
    if (refused.size > 0) await deps.mailbox.acknowledge(delivery).catch((e: unknown) => deps.log(`could not mark ignored message(s) read: ${e instanceof Error ? e.message : String(e)}`));
    return undefined;
  }
  conversation.flush();
  let response: ModelResponse;
  // A looked-at delivery's request can be cancelled on its own: its take may fail or hand out others.
  const cancel = looked ? linkedAbort(signal) : undefined;
  try {
    const system = await prompt;
    traceMark('step-prompt');
    if (system.status === 'rejected') throw system.reason;
    const request: ModelRequest = { system: system.value, messages: conversation.messages, tools: teamToolSpecs(deps.tools), signal: cancel?.signal ?? signal, teammate: { team, name, lead, cwd } };
    deps.onRequest?.(request);
    traceMark('model-call');
    const asked = deps.model.call(request);
    if (!looked) deps.onModelAsked?.();
    if (looked && cancel) {
      const taken = await commitLooked(deps, looked, asked, cancel);
      if (taken === undefined) {
        // Not the entries the request carries: it is cancelled, and the step runs again on what the take handed out.
        if (block) conversation.withdraw(block);
        return step(conversation, deps);
      }
      delivery = taken;
      looked = undefined;
      deps.onModelAsked?.(); // presence's writes after the take's, not beside them
    }
    response = await asked;
  } catch (err) {
    if (block) conversation.withdraw(block);
    await deps.mailbox.release(delivery).catch((e: unknown) => deps.log(`could not put ${delivered.length} message(s) back to unread (they come back when their lease expires): ${e instanceof Error ? e.message : String(e)}`));
    throw err;
  } finally {
    cancel?.dispose();
  }
  testFreeze('answered', `${deps.tools.team}/${deps.tools.name}`);
  await deps.mailbox.acknowledge(delivery).catch((e: unknown) => {
    // Another runtime took this member's reader claim over while the request ran (this one was paused
    // or starved, presumed dead): its delivery went back and is its successor's now — this answer must not act.
    if (isMailroomError(e, 'READER_FENCED')) throw e;
    deps.log(`could not mark ${delivered.length} delivered message(s) read: ${e instanceof Error ? e.message : String(e)}`);
  });
  await guard.remember(delivered).catch((e: unknown) => deps.log(`could not remember the obeyed control message(s): ${e instanceof Error ? e.message : String(e)}`));
  conversation.addAssistant(response.content);
  deps.log(`model call → ${describeResponse(response)}${delivered.length ? ` (delivered ${delivered.length} message${delivered.length > 1 ? 's' : ''})` : ''}`);
  return response;
}

/**
 * Commits a looked-at delivery whose request is made (issue 24: the request no longer waits for the
 * take's lock, sidecar rename and journal): takes once the request has had its turn to go out, and
 * returns the take's delivery when it hands out exactly the looked-at entries under the same view.
 * Otherwise the request is cancelled, its answer never read — nothing the model said
 * is sent, written or kept — and either the take's error is thrown (nothing was handed out) or,
 * when it handed out other entries, they are kept for the next take and `undefined` is returned.
 */
async function commitLooked(deps: TurnDeps, looked: Delivery, asked: Promise<ModelResponse>, cancel: LinkedAbort): Promise<Delivery | undefined> {
  // A cancelled request's end is never awaited (a model that ignores its signal must not hold the
  // step up), only kept from rejecting unhandled.
  asked.catch(() => undefined);
  // The SDK builds and writes the request in this turn of the event loop; the take's file-system
  // calls (synchronous inside its step) come after it, not between it and the socket.
  await new Promise<void>((resolve) => setImmediate(resolve));
  testFreeze('looked-take', `${deps.tools.team}/${deps.tools.name}`);
  let taken: Delivery;
  try {
    taken = await deps.mailbox.take();
  } catch (err) {
    cancel.abort();
    throw err;
  }
  traceMark('take-committed');
  const store = deps.tools.store.team;
  if (Mailbox.sameDelivery(looked, taken, store.sameView?.bind(store))) return taken;
  cancel.abort();
  deps.mailbox.hold(taken);
  return undefined;
}

/** An abort controller that also aborts with `parent`; `dispose` stops following it. */
interface LinkedAbort {
  signal: AbortSignal;
  abort(): void;
  dispose(): void;
}

function linkedAbort(parent: AbortSignal): LinkedAbort {
  const controller = new AbortController();
  const follow = (): void => controller.abort(parent.reason);
  if (parent.aborted) follow();
  else parent.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    abort: () => controller.abort(new Error('the take handed out other entries, or failed')),
    dispose: () => parent.removeEventListener('abort', follow),
  };
}

/** The text blocks of a reply, joined by blank lines and trimmed. */
function replyText(r: ModelResponse): string {
  return r.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n').trim();
}

function describeResponse(r: ModelResponse): string {
  const tools = r.content.filter((b): b is ToolUseBlock => b.type === 'tool_use').map((b) => b.name);
  return tools.length > 0 ? `tools ${tools.join(', ')}` : r.stopReason;
}

/** `p` as a promise that never rejects (a read started early must not reject unhandled). */
function settle<T>(p: Promise<T>): Promise<PromiseSettledResult<T>> {
  return p.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}

/** The system prompt from a kept config and the board read (or kept) for this step. */
async function promptOf(config: TeamConfig, name: string, board: Promise<PromiseSettledResult<Task[]>>): Promise<PromiseSettledResult<string>> {
  const tasks = await board;
  if (tasks.status === 'rejected') return tasks;
  return { status: 'fulfilled', value: buildSystemPrompt({ config, name, tasks: tasks.value, now: Date.now() }) };
}

/** The delivered entries to withhold (each logged and reported) and those to show marked unverified. */
async function guardEntries(deps: TurnDeps, guard: ControlGuard, entries: readonly InboxEntry[], known: ViewReads | undefined): Promise<{ refused: Set<InboxEntry>; unverified: Set<InboxEntry> }> {
  const { store, team, name } = deps.tools;
  // Found open on this machine with these very signing settings: nothing to judge, not even this machine's pin (see TeamView.openUnder).
  if (known && deps.view?.openUnder(known)) return { refused: new Set(), unverified: new Set() };
  try {
    const judged = await guard.judge(entries, { known });
    if (known && judged.signed === false) deps.view?.foundOpen(known);
    for (const r of judged.refused) deps.log(`withheld a message from "${r.entry.from}": ${r.reason} (check ${r.check}), and this team is signed`);
    await reportWithheld({ root: store, team }, name, judged.refused, 'runtime', deps.log);
    return { refused: new Set(judged.refused.map((r) => r.entry)), unverified: judged.unverified };
  } catch (err) {
    // Signed, but this machine cannot verify (a key file it must not use): obey no control message at all.
    const controls = entries.filter((e) => CONTROL_TYPES.some((t) => e.text.includes(`"${t}"`)));
    if (controls.length > 0) deps.log(`withheld ${controls.length} control message(s): ${err instanceof Error ? err.message : String(err)}`);
    return { refused: new Set(controls), unverified: new Set() };
  }
}
