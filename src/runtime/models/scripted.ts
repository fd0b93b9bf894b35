/**
 * The `scripted` model: replays a fixed list of model turns (text and tool calls), one per call,
 * and records every request it got. For mailroom's tests and for users' tests of their own teams.
 * When the script runs out it ends the turn with no output. A file script is YAML or JSON: a list
 * of turns, or `{turns: [...]}`.
 *
 * A request id exists only once the lead sent its request, so a script cannot spell it: in a tool
 * call's input, {@link SHUTDOWN_REQUEST_ID} (in any string, at any depth) becomes the `requestId` of
 * the latest `shutdown_request` delivered in the conversation so far (left as is when none was), so a
 * script can play a complete teammate: `{name: SendMessage, input: {to: team-lead, message: {type:
 * shutdown_response, request_id: "{{shutdown_request_id}}", approve: true}}}`.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { MailroomError } from '../../errors.js';
import type { HostStore } from '../../store/host-store.js';
import { modelCallAborted } from './abort.js';
import { shutdownRequestIn } from './request-view.js';
import type { Model, ModelRequest, ModelResponse, StopReason } from './types.js';

/** The placeholder a scripted tool call's input uses for the pending shutdown request's id. */
export const SHUTDOWN_REQUEST_ID = '{{shutdown_request_id}}';

/** One scripted reply. `stopReason` defaults to `tool_use` when there are tool calls, else `end_turn`. */
export const ScriptedTurnSchema = z.object({
  text: z.string().optional(),
  toolCalls: z.array(z.object({ name: z.string(), input: z.record(z.string(), z.unknown()).default({}), id: z.string().optional() })).optional(),
  stopReason: z.enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'other']).optional(),
  /** Wait this long (ms) before replying, like a slow model; aborts with the request's signal. */
  delayMs: z.number().nonnegative().optional(),
});

/** One scripted reply (see {@link ScriptedTurnSchema}). */
export type ScriptedTurn = z.input<typeof ScriptedTurnSchema>;

/** Options of {@link createScriptedModel}. */
export interface ScriptedModelOptions {
  turns: readonly ScriptedTurn[];
  /** Model name in the id (`scripted:<name>`). */
  name?: string;
  /** Runs at each call before the reply (index is 0-based); a test can act "during" a model call. */
  onCall?: (request: ModelRequest, index: number) => void | Promise<void>;
}

/** A scripted model with the requests it received (in call order). */
export interface ScriptedModel extends Model {
  readonly requests: readonly ModelRequest[];
}

/** Creates a scripted model from turns. */
export function createScriptedModel(options: ScriptedModelOptions): ScriptedModel {
  const turns = options.turns.map((t) => ScriptedTurnSchema.parse(t));
  const requests: ModelRequest[] = [];
  const id = `scripted:${options.name ?? 'inline'}`;
  return {
    id,
    requests,
    async call(request) {
      const index = requests.push(request) - 1;
      await options.onCall?.(request, index);
      const turn = turns[index];
      if (turn?.delayMs) await delay(turn.delayMs, request.signal, id);
      return turn ? replyOf(turn, index, request) : { content: [], stopReason: 'end_turn' };
    },
  };
}

/**
 * Loads a script file (YAML or JSON), read through the host store (a file the user points at).
 * @throws INVALID_ARGUMENT when missing or malformed
 */
export async function loadScriptedModel(path: string, host: Pick<HostStore, 'readUserFile'>): Promise<ScriptedModel> {
  const raw: unknown = parseYaml(await host.readUserFile(path, 'model script'));
  const list = Array.isArray(raw) ? raw : (raw as { turns?: unknown } | null)?.turns;
  const parsed = z.array(ScriptedTurnSchema).safeParse(list);
  if (!parsed.success) {
    throw new MailroomError('INVALID_ARGUMENT', `Model script ${path} is not a list of turns ({text?, toolCalls?: [{name, input}], stopReason?, delayMs?}): ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  }
  return createScriptedModel({ turns: parsed.data, name: path });
}

function replyOf(turn: z.output<typeof ScriptedTurnSchema>, index: number, request: ModelRequest): ModelResponse {
  const content: ModelResponse['content'] = [];
  if (turn.text) content.push({ type: 'text', text: turn.text });
  const requestId = latestShutdownRequestId(request);
  (turn.toolCalls ?? []).forEach((c, i) => content.push({ type: 'tool_use', id: c.id ?? `toolu_scripted_${index}_${i}`, name: c.name, input: fillIn(c.input, requestId) as Record<string, unknown> }));
  const stopReason: StopReason = turn.stopReason ?? (turn.toolCalls?.length ? 'tool_use' : 'end_turn');
  return { content, stopReason };
}

/** The requestId of the newest shutdown_request delivered in the request's user turns. */
function latestShutdownRequestId(request: ModelRequest): string | undefined {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i];
    if (m?.role !== 'user') continue;
    const found = shutdownRequestIn(m);
    if (found) return found.requestId;
  }
  return undefined;
}

/** `value` with {@link SHUTDOWN_REQUEST_ID} replaced in every string (a copy; unchanged without an id). */
function fillIn(value: unknown, requestId: string | undefined): unknown {
  if (requestId === undefined) return value;
  if (typeof value === 'string') return value.split(SHUTDOWN_REQUEST_ID).join(requestId);
  if (Array.isArray(value)) return value.map((v) => fillIn(v, requestId));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillIn(v, requestId)]));
  return value;
}

function delay(ms: number, signal: AbortSignal, id: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(modelCallAborted(id, signal));
    const timer = setTimeout(() => (signal.removeEventListener('abort', onAbort), resolve()), ms);
    const onAbort = () => (clearTimeout(timer), reject(modelCallAborted(id, signal)));
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
