/**
 * The hook that keeps the screen current: it subscribes to a {@link SnapshotSource} (fed by the
 * store watch through `followTeam`) and re-renders with each new snapshot.
 */
import { useEffect, useState } from 'react';
import type { TeamSnapshot } from '../core/live/snapshot.js';
import type { OpenRequest } from '../core/messages/approvals.js';
import type { PathLease } from '../protocol/path-lease.js';

/** One update for the screen: the new snapshot, a line describing the latest event, the open requests. */
export interface LiveState {
  snapshot: TeamSnapshot;
  status?: string | undefined;
  requests?: readonly OpenRequest[] | undefined;
  /** The live path leases (./leases-follow.ts). */
  leases?: readonly PathLease[] | undefined;
}

/** Where snapshots come from. `subscribe` returns an unsubscribe function. */
export interface SnapshotSource {
  initial: TeamSnapshot;
  subscribe(listener: (state: LiveState) => void): () => void;
}

/** The latest state from `source` (its initial snapshot until the first update). */
export function useLiveSnapshot(source: SnapshotSource): LiveState {
  const [state, setState] = useState<LiveState>({ snapshot: source.initial });
  useEffect(() => source.subscribe(setState), [source]);
  return state;
}

/** The terminal size, following resizes. */
export function useTerminalSize(stdout: NodeJS.WriteStream): { columns: number; rows: number } {
  const read = () => ({ columns: stdout.columns || 100, rows: stdout.rows || 30 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
