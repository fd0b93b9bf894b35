/**
 * Small text helpers for the screen: fixed-width cells, local clock times, Claude Code palette
 * colors mapped to terminal colors, member-state colors.
 */
import type { MemberState } from '../core/members/member-state.js';
import { terminalSafe } from '../core/text/terminal-text.js';

/** Pads or cuts `text` to exactly `width` columns (cut text ends with `…`). */
export function cell(text: string, width: number): string {
  const flat = terminalSafe(text.replace(/\s+/g, ' '));
  if (width <= 0) return '';
  if (flat.length > width) return `${flat.slice(0, Math.max(0, width - 1))}…`;
  return flat.padEnd(width);
}

/** `HH:MM:SS` in local time for an ISO timestamp; `-` when absent or unparseable. */
export function clock(iso: string | undefined): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '-';
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** Terminal color for a Claude Code palette color (reference §2); undefined for none/unknown. */
export function paletteColor(color: string | undefined): string | undefined {
  switch (color) {
    case 'red':
    case 'blue':
    case 'green':
    case 'yellow':
    case 'cyan':
      return color;
    case 'purple':
      return 'magenta';
    case 'orange':
      return '#ff8700';
    case 'pink':
      return '#ff5fd7';
    default:
      return undefined;
  }
}

/** Color of a member state in the roster. */
export function stateColor(state: MemberState): string {
  switch (state) {
    case 'working':
      return 'green';
    case 'idle':
      return 'gray';
    case 'waiting':
      return 'yellow';
    case 'stopped':
      return 'red';
    case 'dead':
      return 'magenta';
    case 'left':
    case 'unknown':
      return 'gray';
  }
}

/** The rows `[start, end)` of `total` to show in `count` lines so that row `selected` is visible. */
export function windowOf(total: number, selected: number, count: number): { start: number; end: number } {
  if (total <= count) return { start: 0, end: total };
  const start = Math.min(Math.max(0, selected - count + 1), total - count);
  return { start, end: start + count };
}
