/**
 * Key handling of the send form: typing, Backspace, Tab to change recipient, Enter, Esc.
 */
import type { Key } from 'ink';
import type { TeamSnapshot } from '../core/snapshot.js';
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
  if (key.backspace || key.delete) return { ...state, text: state.text.slice(0, -1) };
  if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return state;
  const printable = input.replace(/[\u0000-\u001f\u007f]/g, '');
  return printable === '' ? state : { ...state, text: state.text + printable };
}
