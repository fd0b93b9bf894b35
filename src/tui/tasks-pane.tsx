/**
 * The task board: id, status, owner, board state (ready / blocked by …), subject and what each
 * task blocks, in id order. Columns are as wide as their content allows; tasks that do not fit are
 * counted on a `+N more` line.
 */
import { Text } from 'ink';
import type { TaskView } from '../core/tasks/board.js';
import { cell } from './format.js';
import { fitColumns, listWindow, widest } from './fit.js';
import { innerWidth, listRows, MoreLine, Pane } from './pane.js';

/** Props of {@link TasksPane}. */
export interface TasksPaneProps {
  tasks: readonly TaskView[];
  selected: number;
  focused: boolean;
  height: number;
  width: number;
}

const STATUS_COLOR = { pending: 'white', in_progress: 'yellow', completed: 'green' } as const;

/** `ready`, `blocked by #1 #2`, or empty. */
export function boardState(v: TaskView): string {
  if (v.blocked) return `blocked by ${v.openBlockers.map((id) => `#${id}`).join(' ')}`;
  return v.ready ? 'ready' : '';
}

function cells(v: TaskView): string[] {
  return [`#${v.task.id}`, v.task.status, v.task.owner || '-', boardState(v), v.task.subject, v.task.blocks.map((id) => `#${id}`).join(' ') || '-'];
}

/** Column widths of the board for `tasks` in a pane of inner width `w`: the subject takes the rest. */
export function taskColumns(tasks: readonly TaskView[], w: number): number[] {
  const rows = tasks.map(cells);
  const col = (i: number) => widest(rows.map((r) => r[i] as string));
  return fitColumns(
    [
      { header: 'ID', widest: col(0), min: 3 },
      { header: 'STATUS', widest: col(1), min: 7 },
      { header: 'OWNER', widest: col(2), min: 5, max: 16 },
      { header: 'BOARD', widest: col(3), min: 5, max: 20 },
      { header: 'SUBJECT', widest: col(4), min: 8, rest: true },
      { header: 'BLOCKS', widest: col(5), min: 6, max: 14 },
    ],
    w,
  );
}

/** See the module comment. */
export function TasksPane({ tasks, selected, focused, height, width }: TasksPaneProps) {
  const [id, status, owner, board, subject, blocks] = taskColumns(tasks, innerWidth(width)) as [number, number, number, number, number, number];
  const win = listWindow(tasks.length, selected, listRows(height));
  const counts = { pending: 0, in_progress: 0, completed: 0 };
  for (const v of tasks) counts[v.task.status]++;
  return (
    <Pane title={`Tasks (${counts.pending} pending, ${counts.in_progress} in progress, ${counts.completed} completed)`} focused={focused} height={height}>
      <Text dimColor wrap="truncate">
        {[cell('ID', id), cell('STATUS', status), cell('OWNER', owner), cell('BOARD', board), cell('SUBJECT', subject), cell('BLOCKS', blocks)].join(' ')}
      </Text>
      <MoreLine more={win.moreOnTop ? win.more : undefined} />
      {tasks.slice(win.start, win.end).map((v, i) => {
        const c = cells(v);
        return (
          <Text key={v.task.id} inverse={focused && win.start + i === selected} wrap="truncate">
            {cell(c[0] as string, id)} <Text color={STATUS_COLOR[v.task.status]}>{cell(v.task.status, status)}</Text> {cell(c[2] as string, owner)}{' '}
            <Text color={v.blocked ? 'red' : v.ready ? 'green' : undefined}>{cell(c[3] as string, board)}</Text> {cell(c[4] as string, subject)} {cell(c[5] as string, blocks)}
          </Text>
        );
      })}
      <MoreLine more={win.moreOnTop ? undefined : win.more} />
      {tasks.length === 0 ? <Text dimColor>(no tasks)</Text> : null}
    </Pane>
  );
}
