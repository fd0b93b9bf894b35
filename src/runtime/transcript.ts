/**
 * A teammate's transcript: its conversation turns kept on this machine through the HostStore
 * (`mailroom/transcripts/<team>/<member>.ndjson`), so a runtime that starts the member again
 * (`team resume`, `mailroom agent` after a crash) carries on the same conversation. One line per
 * turn: `{"at": <epoch ms>, "joinedAt": <the member's joinedAt>, "message": <ChatMessage>}`; only
 * lines of the same member (same `joinedAt`) are restored, so a member spawned again under an
 * earlier member's name starts afresh. Bounded by {@link TRANSCRIPT_MAX_BYTES} (docs/runtime.md
 * "Transcripts").
 */
import type { HostStore } from '../store/host-store.js';
import type { ChatMessage } from './models/types.js';

/** Bound of one member's transcript file (bytes): past it, only its newest half is kept. */
export const TRANSCRIPT_MAX_BYTES = 256 * 1024;

/** Where a member's transcript is, and whose it is. */
export interface TranscriptRef {
  host: HostStore;
  team: string;
  name: string;
  /** The member's `joinedAt` (epoch ms), undefined for a member registered without one. */
  joinedAt: number | undefined;
}

/** Appends turns to the member's transcript. @throws FILE_ACCESS */
export async function appendTurns(ref: TranscriptRef, turns: readonly ChatMessage[], maxBytes = TRANSCRIPT_MAX_BYTES): Promise<void> {
  const at = Date.now();
  await ref.host.appendTranscript(ref.team, ref.name, turns.map((message) => JSON.stringify({ at, joinedAt: ref.joinedAt ?? null, message })), maxBytes);
}

/**
 * The member's earlier turns, ready to send again: lines that do not parse (a line cut by a crash)
 * or belong to an earlier member of the name are skipped; leading turns are dropped until the first
 * is a user turn without tool results (bounding may have cut a tool call from its result), and
 * trailing ones after the last assistant turn.
 */
export async function loadTurns(ref: TranscriptRef): Promise<ChatMessage[]> {
  const turns: ChatMessage[] = [];
  for (const line of (await ref.host.readTranscript(ref.team, ref.name)).split('\n')) {
    const message = parseLine(line, ref.joinedAt ?? null);
    if (message) turns.push(message);
  }
  const start = turns.findIndex((t) => t.role === 'user' && !t.content.some((b) => b.type === 'tool_result'));
  if (start < 0) return [];
  const kept = turns.slice(start);
  let end = kept.length;
  while (end > 0 && kept[end - 1]!.role !== 'assistant') end--;
  return alternating(kept.slice(0, end));
}

function parseLine(line: string, joinedAt: number | null): ChatMessage | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as { joinedAt?: unknown; message?: { role?: unknown; content?: unknown } };
    if ((value.joinedAt ?? null) !== joinedAt) return undefined;
    const m = value.message;
    if (!m || (m.role !== 'user' && m.role !== 'assistant') || !Array.isArray(m.content)) return undefined;
    return m as ChatMessage;
  } catch {
    return undefined;
  }
}

/** Consecutive turns of one role (a skipped line between them) are merged, as the APIs require alternation. */
function alternating(turns: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const t of turns) {
    const last = out[out.length - 1];
    if (last?.role === t.role) out[out.length - 1] = { role: t.role, content: [...last.content, ...t.content] } as ChatMessage;
    else out.push(t);
  }
  return out;
}
