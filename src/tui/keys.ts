/**
 * Keys of the watch screen as a pure reducer: (screen state, key) → new state and, at most, one
 * effect (quit, send, answer a request). In the requests pane (shown while requests are open), `a`
 * approves the selected request and `d` asks for a reason, then denies it. A chunk of several typed characters (fast typing, a paste, `tmux
 * send-keys j Enter`) arrives as one input; {@link splitKeys} turns it back into single keys.
 */
import type { Key } from 'ink';
import type { TeamSnapshot } from '../core/live/snapshot.js';
import type { OpenRequest } from '../core/messages/approvals.js';
import { nextRecipient, openView, type PaneName, type View } from './navigation.js';
import { editText, handleSendKey, type SendState } from './send-keys.js';

/** Everything the screen remembers between keys. */
export interface UiState {
  pane: PaneName;
  /** Selected row per pane; `Infinity` for messages means "follow the newest". */
  cursor: Record<PaneName, number>;
  view: View;
  send?: SendState | undefined;
  /** The deny form: the request being denied and the reason typed so far. */
  deny?: DenyState | undefined;
}

/** What the deny form holds. */
export interface DenyState {
  id: string;
  from: string;
  reason: string;
}

/** What the app must do after a key. */
export type Effect = { kind: 'quit' } | { kind: 'send'; to: string; text: string } | { kind: 'answer'; id: string; approve: boolean; reason?: string };

/** The state a screen starts in: roster focused, messages following the newest. */
export const INITIAL_UI: UiState = { pane: 'roster', cursor: { roster: 0, tasks: 0, messages: Number.POSITIVE_INFINITY, requests: 0 }, view: { kind: 'main' } };

const PANES: PaneName[] = ['roster', 'tasks', 'messages', 'requests'];
const NONE: readonly OpenRequest[] = [];

/** The panes on screen: the requests pane only while a request is open. */
function panesOf(requests: readonly OpenRequest[]): PaneName[] {
  return requests.length > 0 ? PANES : PANES.slice(0, 3);
}
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
export function selectedRow(ui: UiState, s: TeamSnapshot, pane: PaneName, requests: readonly OpenRequest[] = NONE): number {
  return Math.max(0, Math.min(ui.cursor[pane], sizes(s, requests)[pane] - 1));
}

function sizes(s: TeamSnapshot, requests: readonly OpenRequest[]): Record<PaneName, number> {
  return { roster: s.members.length, tasks: s.tasks.length, messages: s.messages.length, requests: requests.length };
}

/** Applies one key. */
export function reduceKey(ui: UiState, input: string, key: Key, s: TeamSnapshot, requests: readonly OpenRequest[] = NONE): { ui: UiState; effect?: Effect } {
  if (ui.deny) {
    const d = ui.deny;
    if (key.escape) return { ui: { ...ui, deny: undefined } };
    if (key.return) return d.reason.trim() === '' ? { ui } : { ui: { ...ui, deny: undefined }, effect: { kind: 'answer', id: d.id, approve: false, reason: d.reason.trim() } };
    return { ui: { ...ui, deny: { ...d, reason: editText(d.reason, input, key) } } };
  }
  if (ui.send) {
    const next = handleSendKey(ui.send, input, key, s);
    if (next === 'cancel') return { ui: { ...ui, send: undefined } };
    if (next === 'submit') return { ui: { ...ui, send: undefined }, effect: { kind: 'send', to: ui.send.to, text: ui.send.text } };
    return { ui: { ...ui, send: next } };
  }
  if (input === 'q' || (key.ctrl && input === 'c')) return { ui, effect: { kind: 'quit' } };
  if (ui.view.kind !== 'main') return { ui: key.escape || key.backspace || key.delete ? { ...ui, view: { kind: 'main' } } : ui };
  // The requests pane went away (its last request was answered): focus falls back to the roster.
  const here = ui.pane === 'requests' && requests.length === 0 ? { ...ui, pane: 'roster' as const } : ui;
  if (here.pane === 'requests' && (input === 'a' || input === 'd')) {
    const r = requests[selectedRow(here, s, 'requests', requests)]!;
    if (input === 'a') return { ui: here, effect: { kind: 'answer', id: r.id, approve: true } };
    return { ui: { ...here, deny: { id: r.id, from: r.from, reason: '' } } };
  }
  return { ui: reduceMain(here, input, key, s, requests) };
}

function reduceMain(ui: UiState, input: string, key: Key, s: TeamSnapshot, requests: readonly OpenRequest[]): UiState {
  const row = selectedRow(ui, s, ui.pane, requests);
  const last = sizes(s, requests)[ui.pane] - 1;
  const panes = panesOf(requests);
  const follow = (to: number) => (ui.pane === 'messages' && to >= last ? Number.POSITIVE_INFINITY : Math.max(0, Math.min(to, last)));
  const move = (to: number): UiState => ({ ...ui, cursor: { ...ui.cursor, [ui.pane]: follow(to) } });
  const turn = (step: number): UiState => ({ ...ui, pane: panes[(panes.indexOf(ui.pane) + step + panes.length) % panes.length]! });
  if (key.tab) return turn(key.shift ? -1 : 1);
  if (key.rightArrow) return turn(1);
  if (key.leftArrow) return turn(-1);
  if (input === '1' || input === '2' || input === '3' || (input === '4' && panes.length === 4)) return { ...ui, pane: panes[Number(input) - 1]! };
  if (key.upArrow || input === 'k') return move(row - 1);
  if (key.downArrow || input === 'j') return move(row + 1);
  if (input === 'g') return move(0);
  if (input === 'G') return move(last);
  if (key.return && ui.pane !== 'requests') return { ...ui, view: openView(s, ui.pane, row) };
  if (input === 's') {
    const preferred = ui.pane === 'roster' ? s.members[selectedRow(ui, s, 'roster')]?.name : undefined;
    return { ...ui, send: { to: nextRecipient(s, preferred, 0), text: '' } };
  }
  return ui;
}
