/**
 * The roster: one row per member with state, backend, model, current task, unread count and the
 * time of its last message. Members that left are listed last, dimmed.
 */
import { Text } from 'ink';
import type { MemberView } from '../core/snapshot.js';
import { cell, clock, paletteColor, stateColor, windowOf } from './format.js';
import { innerWidth, listRows, Pane } from './pane.js';

/** Props of {@link RosterPane}. */
export interface RosterPaneProps {
  members: readonly MemberView[];
  selected: number;
  focused: boolean;
  height: number;
  width: number;
}

const BASE = { name: 16, state: 8, backend: 11, unread: 7, last: 8 };

/** Column widths for an inner width: the model column (≤ 28) gives way first, then the task column. */
export function rosterColumns(w: number): typeof BASE & { model: number; task: number } {
  const fixed = Object.values(BASE).reduce((a, b) => a + b + 1, 0) + 1;
  const model = Math.max(12, Math.min(28, w - fixed - 20));
  return { ...BASE, model, task: Math.max(6, w - fixed - model) };
}

/** See the module comment. */
export function RosterPane({ members, selected, focused, height, width }: RosterPaneProps) {
  const { task, ...FIXED } = rosterColumns(innerWidth(width));
  const { start, end } = windowOf(members.length, selected, listRows(height));
  return (
    <Pane title={`Roster (${members.length})`} focused={focused} height={height}>
      <Text dimColor wrap="truncate">
        {[cell('NAME', FIXED.name), cell('STATE', FIXED.state), cell('BACKEND', FIXED.backend), cell('MODEL', FIXED.model), cell('TASK', task), cell('UNREAD', FIXED.unread), cell('LAST', FIXED.last)].join(' ')}
      </Text>
      {members.slice(start, end).map((m, i) => (
        <Text key={m.name} inverse={focused && start + i === selected} dimColor={!m.inRoster} wrap="truncate">
          <Text color={paletteColor(m.color)} bold={m.isLead}>
            {cell(m.isLead ? `${m.name} *` : m.name, FIXED.name)}
          </Text>{' '}
          <Text color={stateColor(m.state)}>{cell(m.state, FIXED.state)}</Text>{' '}
          {cell(m.runtime ?? m.backendType ?? '-', FIXED.backend)} {cell(m.model ?? '-', FIXED.model)}{' '}
          {cell(m.currentTask ? `#${m.currentTask.id} ${m.currentTask.subject}` : '-', task)} {cell(String(m.unread), FIXED.unread)} {cell(clock(m.lastActivity), FIXED.last)}
        </Text>
      ))}
    </Pane>
  );
}
