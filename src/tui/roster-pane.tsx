/**
 * The roster: one row per member with state, backend, model, current task, unread count and the
 * time of its last message. Members that left are listed last, dimmed. Columns are as wide as
 * their content allows on the terminal; members that do not fit are counted on a `+N more` line.
 */
import { Text } from 'ink';
import type { MemberView } from '../core/live/snapshot.js';
import { knownModel } from '../core/members/known-model.js';
import { cell, clock, paletteColor, stateColor } from './format.js';
import { fitColumns, listWindow, widest } from './fit.js';
import { innerWidth, listRows, MoreLine, Pane } from './pane.js';

/** Props of {@link RosterPane}. */
export interface RosterPaneProps {
  members: readonly MemberView[];
  selected: number;
  focused: boolean;
  height: number;
  width: number;
}

/** The text of each roster cell of a member, before fitting. */
function cells(m: MemberView): string[] {
  return [m.isLead ? `${m.name} *` : m.name, m.state, m.runtime ?? m.backendType ?? '-', knownModel(m.model) ?? '-', m.currentTask ? `#${m.currentTask.id} ${m.currentTask.subject}` : '-', String(m.unread), clock(m.lastActivity)];
}

/** Column widths of the roster for `members` in a pane of inner width `w`: model and task give way first. */
export function rosterColumns(members: readonly MemberView[], w: number): number[] {
  const rows = members.map(cells);
  const col = (i: number) => widest(rows.map((r) => r[i] as string));
  return fitColumns(
    [
      { header: 'NAME', widest: col(0), min: 8, max: 24 },
      { header: 'STATE', widest: col(1), min: 7 },
      { header: 'BACKEND', widest: col(2), min: 7, max: 11 },
      { header: 'MODEL', widest: col(3), min: 6, max: 28 },
      { header: 'TASK', widest: col(4), min: 4, rest: true },
      { header: 'UNREAD', widest: col(5), min: 6 },
      { header: 'LAST', widest: 8, min: 8 },
    ],
    w,
  );
}

/** See the module comment. */
export function RosterPane({ members, selected, focused, height, width }: RosterPaneProps) {
  const [name, state, backend, model, task, unread, last] = rosterColumns(members, innerWidth(width)) as [number, number, number, number, number, number, number];
  const win = listWindow(members.length, selected, listRows(height));
  return (
    <Pane title={`Roster (${members.length})`} focused={focused} height={height}>
      <Text dimColor wrap="truncate">
        {[cell('NAME', name), cell('STATE', state), cell('BACKEND', backend), cell('MODEL', model), cell('TASK', task), cell('UNREAD', unread), cell('LAST', last)].join(' ')}
      </Text>
      <MoreLine more={win.moreOnTop ? win.more : undefined} />
      {members.slice(win.start, win.end).map((m, i) => {
        const c = cells(m);
        return (
          <Text key={m.name} inverse={focused && win.start + i === selected} dimColor={!m.inRoster} wrap="truncate">
            <Text color={paletteColor(m.color)} bold={m.isLead}>
              {cell(c[0] as string, name)}
            </Text>{' '}
            <Text color={stateColor(m.state)}>{cell(m.state, state)}</Text> {cell(c[2] as string, backend)} {cell(c[3] as string, model)} {cell(c[4] as string, task)}{' '}
            {cell(c[5] as string, unread)} {cell(c[6] as string, last)}
          </Text>
        );
      })}
      <MoreLine more={win.moreOnTop ? undefined : win.more} />
    </Pane>
  );
}
