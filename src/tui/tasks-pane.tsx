/**
 * The task board: id, status, owner, blocked/ready, subject and dependencies, in id order.
 */
import { Text } from 'ink';
import type { TaskView } from '../core/tasks.js';
import { cell, windowOf } from './format.js';
import { innerWidth, listRows, Pane } from './pane.js';

/** Props of {@link TasksPane}. */
export interface TasksPaneProps {
  tasks: readonly TaskView[];
  selected: number;
  focused: boolean;
  height: number;
  width: number;
}

const FIXED = { id: 5, status: 11, owner: 14, board: 16, deps: 14 };

const STATUS_COLOR = { pending: 'white', in_progress: 'yellow', completed: 'green' } as const;

/** `ready`, `blocked by #1 #2`, or empty. */
export function boardState(v: TaskView): string {
  if (v.blocked) return `blocked by ${v.openBlockers.map((id) => `#${id}`).join(' ')}`;
  return v.ready ? 'ready' : '';
}

/** See the module comment. */
export function TasksPane({ tasks, selected, focused, height, width }: TasksPaneProps) {
  const w = innerWidth(width);
  const subject = Math.max(8, w - Object.values(FIXED).reduce((a, b) => a + b + 1, 0));
  const { start, end } = windowOf(tasks.length, selected, listRows(height));
  const counts = { pending: 0, in_progress: 0, completed: 0 };
  for (const v of tasks) counts[v.task.status]++;
  return (
    <Pane title={`Tasks (${counts.pending} pending, ${counts.in_progress} in progress, ${counts.completed} completed)`} focused={focused} height={height}>
      <Text dimColor wrap="truncate">
        {[cell('ID', FIXED.id), cell('STATUS', FIXED.status), cell('OWNER', FIXED.owner), cell('BOARD', FIXED.board), cell('SUBJECT', subject), cell('BLOCKS', FIXED.deps)].join(' ')}
      </Text>
      {tasks.slice(start, end).map((v, i) => (
        <Text key={v.task.id} inverse={focused && start + i === selected} wrap="truncate">
          {cell(`#${v.task.id}`, FIXED.id)} <Text color={STATUS_COLOR[v.task.status]}>{cell(v.task.status, FIXED.status)}</Text> {cell(v.task.owner || '-', FIXED.owner)}{' '}
          <Text color={v.blocked ? 'red' : v.ready ? 'green' : undefined}>{cell(boardState(v), FIXED.board)}</Text> {cell(v.task.subject, subject)}{' '}
          {cell(v.task.blocks.map((id) => `#${id}`).join(' ') || '-', FIXED.deps)}
        </Text>
      ))}
      {tasks.length === 0 ? <Text dimColor>(no tasks)</Text> : null}
    </Pane>
  );
}
