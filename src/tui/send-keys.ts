/**
 * Key handling of the send form: typing, Backspace, Tab to change recipient, Enter, Esc.
 */
import type { Key } from 'ink';
import type { TeamSnapshot } from '../core/live/snapshot.js';
import { nextRecipient } from './navigation.js';

/** What the form holds. */
export interface SendState {
  to: string;
  text: string;
}

/** The form after a key: a new state, or `submit` (Enter with text) / `cancel` (Esc). */
export function handleSendKey(state: SendState, input: string, key: Key, s: TeamSnapshot): SendState | 'submit' | 'cancel' {
  if (key.escape) return 'cancel';
  if (key.return) return state.text.trim() === '' ? state : 'submit';
  if (key.tab) return { ...state, to: nextRecipient(s, state.to, key.shift ? -1 : 1) };
  const text = editText(state.text, input, key);
  return text === state.text ? state : { ...state, text };
}

/** One line of typed text after a key: printable characters appended, Backspace removes the last. */
export function editText(text: string, input: string, key: Key): string {
  if (key.backspace || key.delete) return text.slice(0, -1);
  if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.tab || key.return || key.escape) return text;
  return text + input.replace(/[\u0000-\u001f\u007f]/g, '');
}
