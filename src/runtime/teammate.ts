/**
 * A running teammate: wait for work → run a turn → send idle_notification → wait again, until a
 * shutdown is approved (the member leaves the roster, its open tasks go back to pending), it is
 * removed from the roster, or its signal aborts. It holds the member's reader claim for as long as
 * it runs (one consumer per member: a second runtime of any kind is refused with TEAMMATE_RUNNING).
 * Runs inside {@link runAsTeammate}, so {@link currentTeammate} answers anywhere below.
 */
import type { StoreRef } from '../core/context.js';
import { TeamFeed } from '../core/live/feed.js';
import { leadName, requireMember } from '../domain/roster.js';
import { ReaderLease } from '../core/members/reader-claim.js';
import type { ReaderHolder } from '../store/team-store.js';
import { runAsTeammate, type TeammateContext } from './context.js';
import type { Model, ModelRequest } from './models/types.js';
import { TeammateLoop } from './teammate-loop.js';
import { deadline } from './deadline.js';

/** Input of {@link runTeammate}. */
export interface TeammateOptions {
  root: StoreRef;
  team: string;
  /** Member name (must be in the roster). */
  name: string;
  model: Model;
  /** Stops the teammate (in-process shutdown, host close). Passed to every model call and tool. */
  signal?: AbortSignal;
  /** The team's feed (a host passes one for all its teammates); else one is opened. */
  feed?: TeamFeed;
  /** Safety-net re-read period in ms when opening its own feed. */
  pollMs?: number;
  /** Wake for ready tasks, not only for mail (default true). */
  takesTasks?: boolean;
  /** Cap on model calls per turn. */
  maxSteps?: number;
  /** The member's reader claim, already taken (else it is taken here, as an in-process reader; released when the teammate stops either way). */
  reader?: ReaderLease;
  /** What kind of runtime takes the claim when `reader` is not given (default `in-process`). */
  readerKind?: ReaderHolder['kind'];
  /** Receives one human-readable line per notable event (no trailing newline). */
  log?: (line: string) => void;
  /** Observes every model request (tests, benchmarks). */
  onRequest?: (request: ModelRequest) => void;
  /** Start in plan mode (default: the member's `planModeRequired`): plan with read-only tools, work once the lead approves. */
  planMode?: boolean;
  /** Observes state changes. */
  onState?: (state: TeammateState) => void;
  /**
   * Observes the end of every turn: `failed` when its model call threw (`reason`: the error's
   * message). `mailroom run` counts failures in a row to end a run nobody can make progress in.
   */
  onTurn?: (turn: { failed: boolean; reason?: string }) => void;
  /**
   * When to send the lead an idle_notification after a turn (docs/runtime.md "Idle notification"):
   * `changes` (default) skips one that says nothing the previous one did not (same reason, summary,
   * task and result); `every-turn` sends one after every turn, as Claude Code does.
   */
  idleNotifications?: 'changes' | 'every-turn';
  /**
   * Send the lead a turn's final text when the turn messaged neither the lead nor everyone
   * (docs/runtime.md "No lost report"; default true).
   */
  reportUnsentText?: boolean;
  /**
   * Keep the conversation in the member's transcript on this machine and restore it when the
   * member's runtime starts again (docs/runtime.md "Transcripts"; default false; `mailroom agent`
   * turns it on for every model but `worker`).
   */
  transcript?: boolean;
}

/** Where a teammate is in its loop: `idle` means waiting for work. */
export type TeammateState = 'starting' | 'idle' | 'working' | 'stopped';

/** Why a teammate stopped. */
export interface TeammateExit {
  /** `aborted` also when its reader claim was taken over (it was presumed dead). */
  reason: 'shutdown' | 'removed' | 'aborted' | 'hook';
  /** A hook's stopReason (reason `hook`: a hook answered `{"continue": false}`). */
  stopReason?: string;
  /** The approved shutdown request's id (reason `shutdown`). */
  requestId?: string;
}

/** Runs a teammate until it stops. @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND, TEAMMATE_RUNNING at start */
export async function runTeammate(options: TeammateOptions): Promise<TeammateExit> {
  const stores = options.root;
  const config = await stores.team.readConfig(options.team);
  const member = requireMember(config, options.name, 'teammate');
  const log = options.log ?? (() => undefined);
  const reader = options.reader ?? (await ReaderLease.take(stores, options.team, member.name, options.readerKind ?? 'in-process', { log }));
  const onLost = () => log('lost the reader claim (another runtime took it over: this one was presumed dead); stopping');
  reader.signal.addEventListener('abort', onLost, { once: true });
  const stopped = deadline(undefined, options.signal, reader.signal);
  const signal = stopped.signal;
  const ctx: TeammateContext = {
    team: options.team,
    name: member.name,
    agentId: member.agentId,
    lead: leadName(config),
    color: member.color,
    cwd: member.cwd ?? process.cwd(),
    store: stores,
    signal,
  };
  try {
    // Its own feed hints no reader claims: nothing a teammate waits for is presence, and every member's beat would wake it (issue 24 item 3).
    const own = options.feed ? undefined : await TeamFeed.open(stores, options.team, { pollMs: options.pollMs, claims: false });
    try {
      return await runAsTeammate(ctx, () => new TeammateLoop(ctx, { ...options, log, planMode: options.planMode ?? member.planModeRequired === true }, options.feed ?? own!, reader, member.joinedAt).run());
    } finally {
      await own?.close();
    }
  } finally {
    stopped.dispose();
    reader.signal.removeEventListener('abort', onLost);
    await reader.release();
  }
}
