/**
 * Keys of the watch screen as a pure reducer: (screen state, key) → new state and, at most, one
 * effect (quit, send). A chunk of several typed characters (fast typing, a paste, `tmux
 * send-keys j Enter`) arrives as one input; {@link splitKeys} turns it back into single keys.
 */
import type { Key } from 'ink';
import type { TeamSnapshot } from '../core/snapshot.js';
import { nextRecipient, openView, type PaneName, type View } from './navigation.js';
import { handleSendKey, type SendState } from './send-keys.js';

/** Everything the screen remembers between keys. */
export interface UiState {
  pane: PaneName;
  /** Selected row per pane; `Infinity` for messages means "follow the newest". */
  cursor: Record<PaneName, number>;
  view: View;
  send?: SendState | undefined;
}

/** What the app must do after a key. */
export type Effect = { kind: 'quit' } | { kind: 'send'; to: string; text: string };

/** The state a screen starts in: roster focused, messages following the newest. */
export const INITIAL_UI: UiState = { pane: 'roster', cursor: { roster: 0, tasks: 0, messages: Number.POSITIVE_INFINITY }, view: { kind: 'main' } };

const PANES: PaneName[] = ['roster', 'tasks', 'messages'];
const NO_KEY: Key = {} as Key;

/** Splits a multi-character plain input into one key per character (`\r` Return, `\t` Tab, DEL Backspace). */
export function splitKeys(input: string, key: Key): Array<[string, Key]> {
  if (input.length <= 1 || key.ctrl || key.meta || key.escape) return [[input, key]];
  return [...input].map((c): [string, Key] => {
    if (c === '\r' || c === '\n') return ['', { ...NO_KEY, return: true }];
    if (c === '\t') return ['', { ...NO_KEY, tab: true }];
    if (c === '\u007f' || c === '\b') return ['', { ...NO_KEY, backspace: true }];
    return [c, NO_KEY];
  });
}

/** The selected row of `pane`, clamped to the list. */
export function selectedRow(ui: UiState, s: TeamSnapshot, pane: PaneName): number {
  return Math.max(0, Math.min(ui.cursor[pane], sizes(s)[pane] - 1));
}

function sizes(s: TeamSnapshot): Record<PaneName, number> {
  return { roster: s.members.length, tasks: s.tasks.length, messages: s.messages.length };
}

/** Applies one key. */
export function reduceKey(ui: UiState, input: string, key: Key, s: TeamSnapshot): { ui: UiState; effect?: Effect } {
  if (ui.send) {
    const next = handleSendKey(ui.send, input, key, s);
    if (next === 'cancel') return { ui: { ...ui, send: undefined } };
    if (next === 'submit') return { ui: { ...ui, send: undefined }, effect: { kind: 'send', to: ui.send.to, text: ui.send.text } };
    return { ui: { ...ui, send: next } };
  }
  if (input === 'q' || (key.ctrl && input === 'c')) return { ui, effect: { kind: 'quit' } };
  if (ui.view.kind !== 'main') return { ui: key.escape || key.backspace || key.delete ? { ...ui, view: { kind: 'main' } } : ui };
  return { ui: reduceMain(ui, input, key, s) };
}

function reduceMain(ui: UiState, input: string, key: Key, s: TeamSnapshot): UiState {
  const row = selectedRow(ui, s, ui.pane);
  const last = sizes(s)[ui.pane] - 1;
  const follow = (to: number) => (ui.pane === 'messages' && to >= last ? Number.POSITIVE_INFINITY : Math.max(0, Math.min(to, last)));
  const move = (to: number): UiState => ({ ...ui, cursor: { ...ui.cursor, [ui.pane]: follow(to) } });
  const turn = (step: number): UiState => ({ ...ui, pane: PANES[(PANES.indexOf(ui.pane) + step + 3) % 3]! });
  if (key.tab) return turn(key.shift ? -1 : 1);
  if (key.rightArrow) return turn(1);
  if (key.leftArrow) return turn(-1);
  if (input === '1' || input === '2' || input === '3') return { ...ui, pane: PANES[Number(input) - 1]! };
  if (key.upArrow || input === 'k') return move(row - 1);
  if (key.downArrow || input === 'j') return move(row + 1);
  if (input === 'g') return move(0);
  if (input === 'G') return move(last);
  if (key.return) return { ...ui, view: openView(s, ui.pane, row) };
  if (input === 's') {
    const preferred = ui.pane === 'roster' ? s.members[selectedRow(ui, s, 'roster')]?.name : undefined;
    return { ...ui, send: { to: nextRecipient(s, preferred, 0), text: '' } };
  }
  return ui;
}
