/**
 * One turn of a model-driven teammate: deliver → call the model → run its tool calls → repeat,
 * until the model stops calling tools. Unread messages are delivered before *every* model call,
 * also inside a multi-step tool loop, taken on a lease: marked read only once the request carrying
 * them succeeded, and put back (and out of the conversation) when it failed or was aborted, so a
 * crash after a failed request loses nothing (../shared/cases/04).
 */
import { ControlGuard } from '../core/teams/signing.js';
import { journalRefusal } from '../core/live/journal-refusals.js';
import type { InboxEntry } from '../protocol/inbox.js';
import { SIGNED_TYPES } from '../protocol/signature.js';
import { wrapMessages } from './delivery/wrap.js';
import type { Mailbox } from './delivery/mailbox.js';
import type { Conversation } from './conversation.js';
import type { ContentBlock, Model, ModelRequest, ModelResponse, ToolUseBlock } from './models/types.js';
import { loadSystemPrompt } from './prompt.js';
import { runToolCall, teamToolSpecs } from './tools/index.js';
import type { ToolContext, TurnRecord } from './tools/types.js';

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
  // The take and the system prompt's reads do not depend on each other: both at once.
  const [taken, prompt] = await Promise.allSettled([deps.mailbox.take(), loadSystemPrompt(store.team, team, name)]);
  if (taken.status === 'rejected') throw taken.reason;
  const delivery = taken.value;
  // In a signed team a control message without a valid signature is not obeyed: it is consumed (read) but never shown to the model.
  const refused = await refusedControls(deps, delivery.entries);
  const delivered = refused.size === 0 ? delivery.entries : delivery.entries.filter((e) => !refused.has(e));
  const block: ContentBlock | undefined = delivered.length > 0 ? { type: 'text', text: wrapMessages(delivered) } : undefined;
  if (block) conversation.queue(block);
  if (!conversation.hasPending()) {
    // Only refused control messages came: they are consumed all the same.
    if (refused.size > 0) await deps.mailbox.acknowledge(delivery).catch((e: unknown) => deps.log(`could not mark ignored message(s) read: ${e instanceof Error ? e.message : String(e)}`));
    return undefined;
  }
  conversation.flush();
  let response: ModelResponse;
  try {
    if (prompt.status === 'rejected') throw prompt.reason;
    const request: ModelRequest = { system: prompt.value, messages: conversation.messages, tools: teamToolSpecs(deps.tools), signal, teammate: { team, name, lead, cwd } };
    deps.onRequest?.(request);
    response = await deps.model.call(request);
  } catch (err) {
    if (block) conversation.withdraw(block);
    await deps.mailbox.release(delivery).catch((e: unknown) => deps.log(`could not put ${delivered.length} message(s) back to unread (they come back when their lease expires): ${e instanceof Error ? e.message : String(e)}`));
    throw err;
  }
  await deps.mailbox.acknowledge(delivery).catch((e: unknown) => deps.log(`could not mark ${delivered.length} delivered message(s) read: ${e instanceof Error ? e.message : String(e)}`));
  conversation.addAssistant(response.content);
  deps.log(`model call → ${describeResponse(response)}${delivered.length ? ` (delivered ${delivered.length} message${delivered.length > 1 ? 's' : ''})` : ''}`);
  return response;
}

/** The text blocks of a reply, joined by blank lines and trimmed. */
function replyText(r: ModelResponse): string {
  return r.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n\n').trim();
}

function describeResponse(r: ModelResponse): string {
  const tools = r.content.filter((b): b is ToolUseBlock => b.type === 'tool_use').map((b) => b.name);
  return tools.length > 0 ? `tools ${tools.join(', ')}` : r.stopReason;
}

/** The delivered entries that are control messages without a valid signature in a signed team, each logged. */
async function refusedControls(deps: TurnDeps, entries: readonly InboxEntry[]): Promise<Set<InboxEntry>> {
  const { store, team, name } = deps.tools;
  try {
    const refused = await new ControlGuard({ root: store, team }, name).refused(entries);
    for (const r of refused) {
      const why = `ignored a ${r.type} from "${r.entry.from}": ${r.check === 'unsigned' ? 'not signed' : 'its signature does not verify'}, and this team is signed`;
      deps.log(why);
      // Journalled as attempted by whom it claims to be from: `log --actor team-lead` shows the forgery.
      await journalRefusal({ root: store, team }, r.entry.from, { action: 'control', rule: 'signature', code: 'NOT_PERMITTED', message: why, target: name, surface: 'runtime' });
    }
    return new Set(refused.map((r) => r.entry));
  } catch (err) {
    // Signed, but this machine cannot verify (no key): obey no control message at all.
    const controls = entries.filter((e) => SIGNED_TYPES.some((t) => e.text.includes(`"${t}"`)));
    if (controls.length > 0) deps.log(`ignored ${controls.length} control message(s): ${err instanceof Error ? err.message : String(err)}`);
    return new Set(controls);
  }
}
