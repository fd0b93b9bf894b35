/**
 * A running teammate: wait for work → run a turn → send idle_notification → wait again, until a
 * shutdown is approved (the member leaves the roster, its open tasks go back to pending), it is
 * removed from the roster, or its signal aborts. Runs inside {@link runAsTeammate}, so
 * {@link currentTeammate} answers anywhere below.
 */
import { storeOf, type StoreRef } from '../core/context.js';
import { leadName, requireMember } from '../core/members.js';
import { runAsTeammate, type TeammateContext } from './context.js';
import type { Model, ModelRequest } from './models/types.js';
import { TeammateLoop } from './teammate-loop.js';
import { TeamSignals } from './wake/signals.js';

/** Input of {@link runTeammate}. */
export interface TeammateOptions {
  root: StoreRef;
  team: string;
  /** Member name (must be in the roster). */
  name: string;
  model: Model;
  /** Stops the teammate (in-process shutdown, host close). Passed to every model call and tool. */
  signal?: AbortSignal;
  /** Shared wake-up hints of the team (a host passes one for all its teammates); else one is opened. */
  signals?: TeamSignals;
  /** Safety-net re-read period in ms when opening its own signals. */
  pollMs?: number;
  /** Wake for ready tasks, not only for mail (default true). */
  takesTasks?: boolean;
  /** Cap on model calls per turn. */
  maxSteps?: number;
  /** Receives one human-readable line per notable event (no trailing newline). */
  log?: (line: string) => void;
  /** Observes every model request (tests, benchmarks). */
  onRequest?: (request: ModelRequest) => void;
  /** Observes state changes. */
  onState?: (state: TeammateState) => void;
}

/** Where a teammate is in its loop: `idle` means waiting for work. */
export type TeammateState = 'starting' | 'idle' | 'working' | 'stopped';

/** Why a teammate stopped. */
export interface TeammateExit {
  reason: 'shutdown' | 'removed' | 'aborted';
  /** The approved shutdown request's id (reason `shutdown`). */
  requestId?: string;
}

/** Runs a teammate until it stops. @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND at start */
export async function runTeammate(options: TeammateOptions): Promise<TeammateExit> {
  const store = storeOf(options.root);
  const config = await store.readConfig(options.team);
  const member = requireMember(config, options.name, 'teammate');
  const signal = options.signal ?? new AbortController().signal;
  const ctx: TeammateContext = {
    team: options.team,
    name: member.name,
    agentId: member.agentId,
    lead: leadName(config),
    color: member.color,
    cwd: member.cwd ?? process.cwd(),
    store,
    signal,
  };
  const own = options.signals ? undefined : await TeamSignals.open(store, options.team, { pollMs: options.pollMs });
  try {
    return await runAsTeammate(ctx, () => new TeammateLoop(ctx, options, options.signals ?? own!).run());
  } finally {
    await own?.close();
  }
}
