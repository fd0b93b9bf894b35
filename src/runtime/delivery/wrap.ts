/**
 * The `<teammate-message>` wrapper Claude Code uses to put inbox entries into a model turn
 * (reference §7.2), following 2.1.332: attributes in the fixed order `teammate_id`, `color`,
 * `summary`; empty ones omitted; `& " < >` escaped; `summary` trimmed and capped at 200 characters;
 * `teammate_id` capped at 256 (`[unknown sender]` when empty); `color` kept only for palette colors;
 * a closing tag inside a body neutralised. Bodies are otherwise verbatim (protocol messages appear
 * as raw JSON). Several messages are joined with one blank line into a single user turn.
 */
import { PALETTE } from '../../protocol/config.js';
import type { InboxEntry } from '../../protocol/inbox.js';

/** Longest `summary` attribute kept (characters), as Claude Code 2.1.332. */
export const SUMMARY_CAP = 200;
/** Longest `teammate_id` attribute kept (characters), as Claude Code 2.1.332. */
export const SENDER_CAP = 256;

/** Escapes `& " < >` for an XML-style attribute value. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Makes a body unable to close its wrapper early: `</teammate-message` becomes `&lt;/teammate-message`. */
export function neutraliseBody(text: string): string {
  return text.replace(/<\/teammate-message/gi, '&lt;/teammate-message');
}

/**
 * Wraps one inbox entry. `unverified`: in a signed team, a message whose sender cannot sign (a
 * Claude Code member) gets `verified="false"` last, as Claude Code 2.1.332 marks an unverified
 * lead message (reference §7.6); nothing is ever marked verified.
 */
export function wrapMessage(entry: InboxEntry, unverified = false): string {
  const attrs = [`teammate_id="${escapeAttribute(senderOf(entry))}"`];
  if (entry.color && (PALETTE as readonly string[]).includes(entry.color)) attrs.push(`color="${escapeAttribute(entry.color)}"`);
  const summary = (entry.summary ?? '').trim().slice(0, SUMMARY_CAP);
  if (summary !== '') attrs.push(`summary="${escapeAttribute(summary)}"`);
  if (unverified) attrs.push('verified="false"');
  return `<teammate-message ${attrs.join(' ')}>\n${neutraliseBody(entry.text)}\n</teammate-message>`;
}

/** Wraps several entries, in the given order, joined by one blank line; those in `unverified` marked so. */
export function wrapMessages(entries: readonly InboxEntry[], unverified?: ReadonlySet<InboxEntry>): string {
  return entries.map((e) => wrapMessage(e, unverified?.has(e) ?? false)).join('\n\n');
}

function senderOf(entry: InboxEntry): string {
  const from = entry.from.slice(0, SENDER_CAP);
  return from === '' ? '[unknown sender]' : from;
}
