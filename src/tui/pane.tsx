/**
 * A bordered pane with a title line; the focused pane has a cyan border and a bold title.
 */
import type { ReactNode } from 'react';
import { Box, Text } from 'ink';

/** Props of {@link Pane}. */
export interface PaneProps {
  title: string;
  focused: boolean;
  /** Outer height in rows (border included). */
  height: number;
  children?: ReactNode;
}

/** See the module comment. */
export function Pane({ title, focused, height, children }: PaneProps) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={focused ? 'cyan' : 'gray'} height={height} paddingX={1} overflow="hidden">
      <Text bold={focused} color={focused ? 'cyan' : undefined} wrap="truncate">
        {title}
      </Text>
      {children}
    </Box>
  );
}

/** The `+N more` line of a list that does not fit (nothing when everything fits). */
export function MoreLine({ more }: { more: string | undefined }) {
  return more ? (
    <Text dimColor wrap="truncate">
      {more}
    </Text>
  ) : null;
}

/** Inner width of a pane of outer width `columns` (borders and padding taken off). */
export function innerWidth(columns: number): number {
  return Math.max(10, columns - 4);
}

/** Rows for list items in a pane of outer `height` (border, title and header line taken off). */
export function listRows(height: number): number {
  return Math.max(1, height - 4);
}
