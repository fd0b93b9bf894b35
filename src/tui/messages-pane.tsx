/**
 * The message flow across all inboxes, oldest at the top, newest at the bottom; structured
 * messages are rendered by type, senders in their palette color, unread ones marked `●`.
 */
import { Text } from 'ink';
import type { MemberView, MessageView } from '../core/snapshot.js';
import { cell, clock, paletteColor, windowOf } from './format.js';
import { innerWidth, listRows, Pane } from './pane.js';

/** Props of {@link MessagesPane}. */
export interface MessagesPaneProps {
  messages: readonly MessageView[];
  members: readonly MemberView[];
  selected: number;
  focused: boolean;
  height: number;
  width: number;
}

/** See the module comment. */
export function MessagesPane({ messages, members, selected, focused, height, width }: MessagesPaneProps) {
  const w = innerWidth(width);
  const colors = new Map(members.map((m) => [m.name, paletteColor(m.color)]));
  const names = 14;
  const text = Math.max(10, w - 8 - 1 - 2 - names - 3 - names - 1);
  const { start, end } = windowOf(messages.length, selected, listRows(height) + 1);
  const unread = messages.filter((m) => m.status === 'unread').length;
  return (
    <Pane title={`Messages (${messages.length}, ${unread} unread)`} focused={focused} height={height}>
      {messages.slice(start, end).map((m, i) => (
        <Text key={m.key} inverse={focused && start + i === selected} wrap="truncate">
          <Text dimColor>{clock(m.entry.timestamp)}</Text> <Text color="yellow">{m.status === 'unread' ? '●' : ' '}</Text>{' '}
          <Text color={colors.get(m.entry.from)}>{cell(m.entry.from, names)}</Text> → <Text color={colors.get(m.to)}>{cell(m.to, names)}</Text>{' '}
          {cell(m.line, text)}
        </Text>
      ))}
      {messages.length === 0 ? <Text dimColor>(no messages yet)</Text> : null}
    </Pane>
  );
}
