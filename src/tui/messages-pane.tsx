/**
 * The message flow across all inboxes, oldest at the top, newest at the bottom; structured
 * messages are rendered by type, senders in their palette color, unread ones marked `●`. Messages
 * that do not fit are counted on a `+N more` line.
 */
import { Text } from 'ink';
import type { MemberView, MessageView } from '../core/live/snapshot.js';
import { cell, clock, paletteColor } from './format.js';
import { listWindow, widest } from './fit.js';
import { innerWidth, MoreLine, Pane } from './pane.js';

/** Props of {@link MessagesPane}. */
export interface MessagesPaneProps {
  messages: readonly MessageView[];
  members: readonly MemberView[];
  selected: number;
  focused: boolean;
  height: number;
  width: number;
}

/** Rows for messages in a pane of outer `height` (border and title taken off; no header line). */
export function messageRows(height: number): number {
  return Math.max(1, height - 3);
}

/** See the module comment. */
export function MessagesPane({ messages, members, selected, focused, height, width }: MessagesPaneProps) {
  const w = innerWidth(width);
  const colors = new Map(members.map((m) => [m.name, paletteColor(m.color)]));
  const names = Math.max(4, Math.min(14, widest(messages.flatMap((m) => [m.entry.from, m.to]))));
  const text = Math.max(10, w - 8 - 1 - 2 - names - 3 - names - 1);
  const win = listWindow(messages.length, selected, messageRows(height));
  const unread = messages.filter((m) => m.status === 'unread').length;
  return (
    <Pane title={`Messages (${messages.length}, ${unread} unread)`} focused={focused} height={height}>
      <MoreLine more={win.moreOnTop ? win.more : undefined} />
      {messages.slice(win.start, win.end).map((m, i) => (
        <Text key={m.key} inverse={focused && win.start + i === selected} wrap="truncate">
          <Text dimColor>{clock(m.entry.timestamp)}</Text> <Text color="yellow">{m.status === 'unread' ? '●' : ' '}</Text>{' '}
          <Text color={colors.get(m.entry.from)}>{cell(m.entry.from, names)}</Text> → <Text color={colors.get(m.to)}>{cell(m.to, names)}</Text>{' '}
          {cell(m.line, text)}
        </Text>
      ))}
      <MoreLine more={win.moreOnTop ? undefined : win.more} />
      {messages.length === 0 ? <Text dimColor>(no messages yet)</Text> : null}
    </Pane>
  );
}
