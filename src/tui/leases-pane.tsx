/**
 * The path leases (docs/leases.md) of the team: who holds which paths, exclusive or shared, until
 * when, and why. Shown under the roster while any lease is live; not focusable (a lease is
 * acquired and released with `mailroom lease`, not from this screen).
 */
import { Text } from 'ink';
import type { PathLease } from '../protocol/path-lease.js';
import { cell, clock } from './format.js';
import { listWindow } from './fit.js';
import { innerWidth, MoreLine, Pane } from './pane.js';

/** Props of {@link LeasesPane}. */
export interface LeasesPaneProps {
  leases: readonly PathLease[];
  /** Outer height in rows (border included). */
  height: number;
  width: number;
}

/** See the module comment. Rows: holder, `exclusive` / `shared`, expiry (local time), paths, reason. */
export function LeasesPane({ leases, height, width }: LeasesPaneProps) {
  const win = listWindow(leases.length, 0, Math.max(1, height - 3));
  const holder = Math.min(16, Math.max(6, ...leases.map((l) => l.holder.length)));
  const rest = Math.max(8, innerWidth(width) - (holder + 1 + 9 + 1 + 14 + 1));
  const title = `Leases (${leases.length}: ${leases.filter((l) => !l.shared).length} exclusive, ${leases.filter((l) => l.shared).length} shared)`;
  return (
    <Pane title={title} focused={false} height={height}>
      {leases.slice(win.start, win.end).map((l) => (
        <Text key={l.id} wrap="truncate">
          {cell(l.holder, holder)} <Text color={l.shared ? 'green' : 'yellow'}>{cell(l.shared ? 'shared' : 'exclusive', 9)}</Text> <Text dimColor>{cell(`until ${clock(new Date(l.expiresAt).toISOString())}`, 14)}</Text> {cell(`${l.paths.join(' ')}${l.reason ? ` — ${l.reason}` : ''}`, rest)}
        </Text>
      ))}
      <MoreLine more={win.more} />
    </Pane>
  );
}
