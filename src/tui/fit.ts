/**
 * Fitting the watch screen to the terminal: rows shared between panes by what each needs, list
 * windows that end with a `+N more` line when not everything fits, and column widths sized to
 * their content. Pure functions (tested without a terminal).
 */
import { windowOf } from './format.js';

/** The rows of a list to show, and the `+N more` line for the rest (undefined when all fit). */
export interface ListWindow {
  start: number;
  end: number;
  more?: string;
  /** The hidden rows are all above the shown ones: the `+N more` line goes on top. */
  moreOnTop?: boolean;
}

/**
 * Rows `[start, end)` of `total` that fit in `rows` lines with row `selected` visible. When not all
 * fit, one line is kept for `+N more` (`+N more above`, or `+N more (a above, b below)`).
 */
export function listWindow(total: number, selected: number, rows: number): ListWindow {
  if (total <= rows) return { start: 0, end: total };
  const shown = Math.max(0, rows - 1);
  const { start, end } = windowOf(total, selected, shown);
  const above = start;
  const below = total - end;
  const where = above > 0 && below > 0 ? ` (${above} above, ${below} below)` : above > 0 ? ' above' : '';
  return { start, end, more: `+${above + below} more${where}`, moreOnTop: below === 0 };
}

/**
 * Shares `body` rows between panes that each want `wants[i]` rows (at least `mins[i]`, never more
 * than wanted): every pane gets its minimum, then rows go one at a time to the smallest pane still
 * short of what it wants (so a pane with little content gets all of it, and big ones share the
 * rest evenly). Rows nobody wants are left over (the screen keeps them blank at the bottom, not
 * inside a pane).
 */
export function shareRows(body: number, wants: readonly number[], mins: readonly number[]): number[] {
  const heights = wants.map((w, i) => Math.min(w, mins[i] ?? 0));
  let left = body - heights.reduce((a, b) => a + b, 0);
  while (left > 0) {
    let pick = -1;
    for (let i = 0; i < wants.length; i++) {
      const short = (wants[i] as number) - (heights[i] as number);
      if (short > 0 && (pick < 0 || (heights[i] as number) < (heights[pick] as number))) pick = i;
    }
    if (pick < 0) break;
    heights[pick] = (heights[pick] as number) + 1;
    left--;
  }
  return heights;
}

/** A column: its header, the widest value it holds, the narrowest it may get. */
export interface ColumnSpec {
  header: string;
  widest: number;
  min: number;
  /** Upper bound, however wide the values. */
  max?: number;
  /** Takes the width left over (one column per table). */
  rest?: boolean;
}

/**
 * Widths for `columns` in `width` characters (one space between columns): each as wide as its
 * header and values (up to `max`), the `rest` column gets what is left; when too wide, columns
 * shrink toward `min`, the widest first.
 */
export function fitColumns(columns: readonly ColumnSpec[], width: number): number[] {
  const widths = columns.map((c) => Math.max(c.min, Math.min(c.max ?? Infinity, Math.max(c.header.length, c.widest))));
  const gaps = columns.length - 1;
  const rest = columns.findIndex((c) => c.rest);
  const total = () => widths.reduce((a, b) => a + b, 0) + gaps;
  if (rest >= 0) widths[rest] = Math.max(columns[rest]?.min ?? 0, (widths[rest] as number) + width - total());
  while (total() > width) {
    let pick = -1;
    for (let i = 0; i < widths.length; i++) if ((widths[i] as number) > (columns[i]?.min ?? 0) && (pick < 0 || (widths[i] as number) > (widths[pick] as number))) pick = i;
    if (pick < 0) break;
    widths[pick] = (widths[pick] as number) - 1;
  }
  return widths;
}

/** The widest of `values` (in characters). */
export function widest(values: Iterable<string>): number {
  let w = 0;
  for (const v of values) w = Math.max(w, v.length);
  return w;
}

/**
 * `text` cut into lines of at most `width` characters and at most `rows` lines; when cut, the
 * last line says how many more lines there are (`+N more lines`).
 */
export function fitText(text: string, width: number, rows: number): string[] {
  const lines = text.split('\n').flatMap((line) => {
    if (line.length <= width) return [line];
    const parts: string[] = [];
    for (let i = 0; i < line.length; i += width) parts.push(line.slice(i, i + width));
    return parts;
  });
  if (lines.length <= rows) return lines;
  const shown = Math.max(0, rows - 1);
  const hidden = lines.length - shown;
  return [...lines.slice(0, shown), `+${hidden} more line${hidden === 1 ? '' : 's'}`];
}
