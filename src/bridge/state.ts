/**
 * What a bridge remembers between runs (docs/bridge.md "Restart"), saved in this machine's host
 * store after every sync step: the shared ids of messages present on both sides, per inbox, and the
 * members known on both sides with where each came from. It is the bridge's cursor: a message not
 * in it is copied (a destination that already holds its id stores nothing), one in it is never
 * copied again — also when one side removed it since (archived, or delivered and dropped by Claude
 * Code 2.1.332) — so neither a kill -9 nor a removal makes a duplicate or an echo.
 */
import { MailroomError } from '../errors.js';
import type { HostStore } from '../store/host-store.js';
import type { Task } from '../protocol/task.js';

/** Where a member was first seen: on this machine's Claude Code team, or in the shared store. */
export type MemberOrigin = 'local' | 'remote';

/** The saved state (JSON, version 1). */
export interface BridgeState {
  v: 1;
  /** Shared ids of the messages on both sides, per recipient. */
  synced: Record<string, string[]>;
  /** Members on both sides, by name, with their origin. */
  members: Record<string, MemberOrigin>;
  /** Each task as last seen equal on both sides (the base of a local edit's compare-and-set), by id. */
  tasks: Record<string, Task>;
}

/** An empty state: a first run. */
export function emptyState(): BridgeState {
  return { v: 1, synced: {}, members: {}, tasks: {} };
}

/**
 * A change of one inbox's synced set, as one line of the state's log (`HostStore.appendBridgeStateLog`):
 * a step saves what it changed, not every id of every inbox (issue 24 item 4).
 */
export interface SyncedChange {
  member: string;
  add: string[];
  drop: string[];
}

/** The log line of some synced-set changes: JSON, `{ v: 1, synced: SyncedChange[] }`. */
export function logLine(changes: readonly SyncedChange[]): string {
  return JSON.stringify({ v: 1, synced: changes });
}

/**
 * Applies the log's lines to a state, in order. Adding and dropping ids are set operations, so a
 * line the state already holds (a crash after the state was written whole, before its log was
 * emptied) changes nothing; a line that does not parse (cut short by a crash) is skipped.
 */
export function applyLog(state: BridgeState, lines: readonly string[]): void {
  for (const line of lines) {
    let parsed: { v?: unknown; synced?: unknown };
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch {
      continue;
    }
    if (parsed.v !== 1 || !Array.isArray(parsed.synced)) continue;
    for (const c of parsed.synced as SyncedChange[]) {
      const set = new Set(state.synced[c.member] ?? []);
      for (const id of c.add) set.add(id);
      for (const id of c.drop) set.delete(id);
      state.synced[c.member] = [...set];
    }
  }
}

/** Loads the state of `team` and applies its log (an unreadable state is refused, never overwritten). @throws FILE_CORRUPT */
export async function loadState(host: HostStore, team: string): Promise<BridgeState> {
  const state = await loadWhole(host, team);
  applyLog(state, await host.readBridgeStateLog(team));
  return state;
}

async function loadWhole(host: HostStore, team: string): Promise<BridgeState> {
  const text = await host.readBridgeState(team);
  if (text === undefined) return emptyState();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const s = parsed as Partial<BridgeState> | undefined;
  if (!s || s.v !== 1 || typeof s.synced !== 'object' || typeof s.members !== 'object') {
    throw new MailroomError('FILE_CORRUPT', `The saved state of the bridge of team "${team}" in ${host.location}/mailroom/bridge is not valid: move it aside to start over (messages already on both sides are not copied again).`);
  }
  return { v: 1, synced: s.synced, members: s.members, tasks: s.tasks ?? {} };
}

/** The saved form of a state (the bridge hands it to `HostStore.writeBridgeState`, which writes it atomically): JSON, version 1. */
export function stateText(state: BridgeState): string {
  return JSON.stringify(state);
}
