/**
 * Reading a model request the way the offline models (worker, command) need: the latest user
 * turn, its wrapped messages, and the results of the previous tool calls by tool name.
 */
import { parseMessageText } from '../../protocol/structured.js';
import type { ChatMessage, ModelRequest, ToolResultBlock } from './types.js';

/** One `<teammate-message>` found in a user turn. */
export interface WrappedMessage {
  from: string;
  body: string;
}

/** A tool result with the name of the tool that produced it. */
export interface NamedResult {
  name: string;
  result: ToolResultBlock;
}

const WRAPPER = /<teammate-message teammate_id="([^"]*)"[^>]*>\n([\s\S]*?)\n<\/teammate-message>/g;

/** The last message of the request when it is a user turn. */
export function latestUserTurn(request: ModelRequest): ChatMessage | undefined {
  const last = request.messages[request.messages.length - 1];
  return last?.role === 'user' ? last : undefined;
}

/** The text blocks of a turn, in order. */
export function textsOf(turn: ChatMessage | undefined): string[] {
  return (turn?.content ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : []));
}

/** Every wrapped message in a turn's text, in order. */
export function wrappedMessages(turn: ChatMessage | undefined): WrappedMessage[] {
  return textsOf(turn).flatMap((text) => [...text.matchAll(WRAPPER)].map((m) => ({ from: unescape(m[1] ?? ''), body: m[2] ?? '' })));
}

/** The first shutdown_request delivered in the turn, if any. */
export function shutdownRequestIn(turn: ChatMessage | undefined): { requestId: string; from: string } | undefined {
  for (const m of wrappedMessages(turn)) {
    const parsed = parseMessageText(m.body);
    if (parsed.kind === 'structured' && parsed.message.type === 'shutdown_request') return { requestId: parsed.message.requestId, from: parsed.message.from };
  }
  return undefined;
}

/** The tool results of the latest user turn, named after the calls in the assistant turn before it. */
export function namedResults(request: ModelRequest): NamedResult[] {
  const turn = latestUserTurn(request);
  const asked = request.messages[request.messages.length - 2];
  const names = new Map((asked?.content ?? []).flatMap((b) => (b.type === 'tool_use' ? [[b.id, b.name] as const] : [])));
  return (turn?.content ?? []).flatMap((b) => (b.type === 'tool_result' ? [{ name: names.get(b.toolUseId) ?? '', result: b }] : []));
}

/** Parses a tool result's JSON content (undefined when it is not JSON or is an error). */
export function resultJson(r: NamedResult | undefined): Record<string, unknown> | undefined {
  if (!r || r.result.isError) return undefined;
  try {
    const v: unknown = JSON.parse(r.result.content);
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function unescape(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
