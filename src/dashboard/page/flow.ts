/**
 * The message flow across all inboxes (asks threaded with their replies, each with its delivery
 * state), the send form, the open requests with approve / deny, and the dead letters with retry.
 */
import { useMemo, useState } from 'preact/hooks';
import { html } from './html.js';
import { clock } from './format.js';
import { memo } from './memo.js';
import type { WireDeadLetter, WireMessage, WireRequest, WireState } from '../wire.js';

/** Messages in order, each reply placed right under the ask it answers. */
export function threaded(messages: WireMessage[]): { m: WireMessage; depth: number }[] {
  const replies = new Map<string, WireMessage[]>();
  const asks = new Set(messages.filter((m) => m.msgId).map((m) => m.msgId));
  for (const m of messages) if (m.inReplyTo && asks.has(m.inReplyTo)) replies.set(m.inReplyTo, [...(replies.get(m.inReplyTo) ?? []), m]);
  const out: { m: WireMessage; depth: number }[] = [];
  for (const m of messages) {
    if (m.inReplyTo && asks.has(m.inReplyTo)) continue;
    out.push({ m, depth: 0 });
    for (const r of (m.msgId && replies.get(m.msgId)) || []) out.push({ m: r, depth: 1 });
  }
  return out;
}

/** Props of {@link Messages}. */
export interface MessagesProps {
  state: WireState;
  to: string;
  setTo(to: string): void;
  onSend(to: string, text: string, ask: boolean): Promise<boolean>;
  /** Messages older than the one keyed `before`, oldest first (the server pages back through the history). */
  onOlder(before: string): Promise<WireMessage[]>;
}

/** One message of the flow; redrawn only when the message (or its place in a thread) changed. */
const MessageRow = memo(({ m, depth }: { m: WireMessage; depth: number }) => html`<li class=${`msg ${m.status}${depth ? ' reply' : ''}`} data-key=${m.key}>
      <span class="time">${clock(m.timestamp)}</span>
      <span class="who">${m.from} → ${m.to}</span>
      <span class="line">${m.replyExpected ? html`<span class="tag">ask</span> ` : ''}${m.inReplyTo ? html`<span class="tag">reply</span> ` : ''}${m.line}</span>
      <span class=${`delivery ${m.delivery}`} title="delivery state">${m.delivery}</span>
    </li>`);

/** The flow and the send form. */
export function Messages({ state, to, setTo, onSend, onOlder }: MessagesProps) {
  const [text, setText] = useState('');
  const [asking, setAsking] = useState(false);
  // Pages fetched with "older messages": history, not followed live (the journal has their later fate).
  const [older, setOlder] = useState<WireMessage[]>([]);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (await onSend(to, text, asking)) setText('');
  };
  const rows = useMemo(() => {
    const live = new Set(state.messages.map((m) => m.key));
    return threaded([...older.filter((m) => !live.has(m.key)), ...state.messages]);
  }, [older, state.messages]);
  const shown = older.length + state.messages.length;
  const first = older[0] ?? state.messages[0];
  const loadOlder = async () => {
    if (!first) return;
    const page = await onOlder(first.key).catch(() => []);
    setOlder([...page, ...older]);
  };
  return html`<div>
    <form class="inline" onSubmit=${submit} aria-label="Send a message">
      <label>To <select name="to" value=${to} onChange=${(e: Event) => setTo((e.target as HTMLSelectElement).value)}>
        ${state.members.filter((m) => m.inRoster && m.name !== state.actor).map((m) => html`<option value=${m.name}>${m.name}</option>`)}
      </select></label>
      <input name="text" class="wide" placeholder=${`Message as ${state.actor}`} value=${text} onInput=${(e: Event) => setText((e.target as HTMLInputElement).value)} required />
      <label><input type="checkbox" name="ask" checked=${asking} onChange=${(e: Event) => setAsking((e.target as HTMLInputElement).checked)} /> ask (wait for a reply)</label>
      <button type="submit">Send</button>
    </form>
    ${state.messageTotal > shown ? html`<p class="meta">The newest ${shown} of ${state.messageTotal} messages${older.length ? ` (the ${older.length} oldest shown as they were when fetched)` : ''}. <button class="older" onClick=${loadOlder}>Show ${Math.min(200, state.messageTotal - shown)} older</button></p>` : ''}
    <ol class="flow" aria-label="Messages">${rows.map(({ m, depth }) => html`<${MessageRow} key=${m.key} m=${m} depth=${depth} />`)}</ol>
  </div>`;
}

/** Props of {@link Requests}. */
export interface RequestsProps {
  requests: WireRequest[];
  onAnswer(id: string, approve: boolean, reason: string): Promise<boolean>;
}

/** Open requests with approve / deny (a denial needs a reason). */
export function Requests({ requests, onAnswer }: RequestsProps) {
  const [reasons, setReasons] = useState<Record<string, string>>({});
  if (requests.length === 0) return html`<p class="empty">No open requests.</p>`;
  return html`<ul class="cards" aria-label="Requests">${requests.map((r) => html`<li key=${r.id} data-request=${r.id}>
    <div><span class="tag">${r.kind}</span> <b>${r.from}</b> <span class="time">${clock(r.timestamp)}</span> <code>${r.id}</code></div>
    <div class="summary">${r.summary}</div>
    <div class="inline">
      <input name="reason" placeholder="reason / feedback" value=${reasons[r.id] ?? ''} onInput=${(e: Event) => setReasons({ ...reasons, [r.id]: (e.target as HTMLInputElement).value })} />
      <button class="approve" onClick=${() => onAnswer(r.id, true, reasons[r.id] ?? '')}>Approve</button>
      <button class="deny" onClick=${() => onAnswer(r.id, false, reasons[r.id] ?? '')}>Deny</button>
    </div>
  </li>`)}</ul>`;
}

/** Dead letters with retry. */
export function DeadLetters({ letters, onRetry }: { letters: WireDeadLetter[]; onRetry(id: string): void }) {
  if (letters.length === 0) return html`<p class="empty">No dead letters.</p>`;
  return html`<table class="grid" aria-label="Dead letters"><thead><tr><th>When</th><th>To (left)</th><th>From</th><th>Message</th><th></th></tr></thead>
    <tbody>${letters.map((d) => html`<tr key=${d.id} data-letter=${d.id}><td>${clock(d.timestamp)}</td><td>${d.to}</td><td>${d.from}</td><td>${d.summary}</td><td><button onClick=${() => onRetry(d.id)}>Retry</button></td></tr>`)}</tbody></table>`;
}
