/**
 * The in-process backend: many teammates in one process, sharing one feed of the team. Each runs
 * under its own AbortController (shutdown aborts its model call and tools), its own
 * AsyncLocalStorage context and its own reader claim (a member already read by any runtime — here
 * or in another process — is refused with TEAMMATE_RUNNING). The host also plays the lead's side of
 * the shutdown handshake ({@link shutdownHandshake}).
 */
import { MailroomError } from '../errors.js';
import type { StoreRef } from '../core/context.js';
import { TeamFeed } from '../core/live/feed.js';
import { completeShutdown } from '../core/members/shutdown.js';
import type { Stores } from '../store/selection.js';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, shutdownHandshake } from './lifecycle/answer.js';
import type { Model } from './models/types.js';
import { runTeammate, type TeammateExit, type TeammateOptions, type TeammateState } from './teammate.js';
import { deadline } from './deadline.js';
import { ReaderLease } from '../core/members/reader-claim.js';
import { startSweeper, type Sweeper } from '../core/members/dead-members.js';
import { startArchiver, type Archiver } from '../core/messages/inbox-archiver.js';

/** Input of {@link InProcessHost.open}. */
export interface HostOptions {
  root: StoreRef;
  team: string;
  /** Safety-net re-read period (ms). */
  pollMs?: number;
  /** Receives each teammate's log lines. */
  log?: (name: string, line: string) => void;
  /** Observes every teammate's state changes. */
  onState?: (name: string, state: TeammateState) => void;
}

/** A teammate running in the host. */
export interface HostedTeammate {
  readonly name: string;
  readonly state: TeammateState;
  /** Settles once the teammate holds its member's reader claim (rejects with TEAMMATE_RUNNING when another reader has it). */
  readonly ready: Promise<void>;
  /** Settles when the teammate stops (rejects when it could not start, or on an unexpected crash). */
  readonly done: Promise<TeammateExit>;
}

/** Result of {@link InProcessHost.stop}. */
export type HostStopResult = { name: string; outcome: 'approved' | 'timeout' | 'forced' | 'already-stopped' } | { name: string; outcome: 'rejected'; reason: string };

interface Entry {
  name: string;
  state: TeammateState;
  ready: Promise<void>;
  done: Promise<TeammateExit>;
  controller: AbortController;
}

/** Hosts in-process teammates of one team. */
export class InProcessHost {
  private readonly entries = new Map<string, Entry>();
  /** Takes back the tasks of the team's dead teammates while the host is open (docs/runtime.md "Dead members"). */
  private readonly sweeper: Sweeper;
  /** Archives the team's large inboxes beside the sends while the host is open (core/messages/inbox-archiver.ts). */
  private readonly archiver: Archiver;

  private constructor(
    private readonly store: Stores,
    private readonly options: HostOptions,
    private readonly teamFeed: TeamFeed,
  ) {
    this.sweeper = startSweeper({ root: store, team: options.team });
    this.archiver = startArchiver({ root: store, team: options.team });
  }

  /** Opens the host (starts watching the team). */
  static async open(options: HostOptions): Promise<InProcessHost> {
    const store = options.root;
    return new InProcessHost(store, options, await TeamFeed.open(store, options.team, { pollMs: options.pollMs }));
  }

  /**
   * Starts teammate `name` (a registered member) with `model`.
   * @throws TEAMMATE_RUNNING when this host already runs it (another runtime holding the member's
   * reader claim makes `ready` and `done` reject instead)
   */
  add(name: string, model: Model, extra: Partial<Omit<TeammateOptions, 'root' | 'team' | 'name' | 'model' | 'signal' | 'feed' | 'reader'>> = {}): HostedTeammate {
    const running = this.entries.get(name);
    if (running && running.state !== 'stopped') {
      throw new MailroomError('TEAMMATE_RUNNING', `${name} already runs in this host (in-process, process ${process.pid}); a second runtime would consume the same inbox. Stop it first with host.stop("${name}").`, {
        details: { team: this.options.team, name, pid: process.pid, holder: { kind: 'in-process', pid: process.pid } },
      });
    }
    const controller = new AbortController();
    const log = (line: string) => this.options.log?.(name, line);
    const claim = ReaderLease.take(this.store, this.options.team, name, 'in-process', { log });
    const entry: Entry = { name, state: 'starting', controller, ready: claim.then(() => undefined), done: Promise.resolve({ reason: 'aborted' }) };
    entry.done = claim.then((reader) =>
      runTeammate({
        ...extra,
        root: this.store,
        team: this.options.team,
        name,
        model,
        signal: controller.signal,
        feed: this.teamFeed,
        reader,
        log,
        onState: (s) => ((entry.state = s), extra.onState?.(s), this.options.onState?.(name, s)),
      }),
    );
    entry.done.catch(() => (entry.state = 'stopped'));
    entry.ready.catch(() => undefined); // a refused claim is reported through `ready` and `done` to whoever awaits them
    this.entries.set(name, entry);
    return entry;
  }

  /** The team's shared feed (for the lead's side: following its inbox, waiting for quiet). */
  get feed(): TeamFeed {
    return this.teamFeed;
  }

  /** Every hosted teammate (stopped ones included). */
  teammates(): HostedTeammate[] {
    return [...this.entries.values()];
  }

  /**
   * Shutdown handshake with `name`, forced (abort + teardown) when unanswered after `timeoutMs`
   * (ms, default 30 000), with `force`, or once `signal` aborts (e.g. Ctrl-C) while it waits.
   */
  async stop(name: string, o: { timeoutMs?: number; reason?: string; force?: boolean; signal?: AbortSignal | undefined } = {}): Promise<HostStopResult> {
    const entry = this.entries.get(name);
    if (!entry || entry.state === 'stopped') return { name, outcome: 'already-stopped' };
    if (o.force) return this.force(entry, 'forced');
    const waiting = deadline(undefined, o.signal);
    const { answer } = await shutdownHandshake({
      store: this.store,
      team: this.options.team,
      name,
      reason: o.reason,
      timeoutMs: o.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
      feed: this.teamFeed,
      signal: waiting.signal,
      exited: entry.done,
    }).finally(() => waiting.dispose());
    if (answer.kind === 'rejected') return { name, outcome: 'rejected', reason: answer.reason };
    if (answer.kind === 'timeout') return this.force(entry, 'timeout');
    const exited = await Promise.race([entry.done.then(() => true, () => true), sleep(5_000).then(() => false)]);
    return exited ? { name, outcome: 'approved' } : this.force(entry, 'approved');
  }

  /** Aborts every teammate still running, waits for them and stops watching. */
  async close(): Promise<void> {
    this.sweeper.close();
    this.archiver.close();
    for (const e of this.entries.values()) e.controller.abort(new Error('host closed'));
    await Promise.allSettled([...this.entries.values()].map((e) => e.done));
    await this.teamFeed.close();
  }

  private async force<O extends 'timeout' | 'forced' | 'approved'>(entry: Entry, outcome: O): Promise<{ name: string; outcome: O }> {
    entry.controller.abort(new Error(`${entry.name} was stopped (${outcome})`));
    await entry.done.catch(() => undefined);
    await completeShutdown({ root: this.store, team: this.options.team, name: entry.name });
    return { name: entry.name, outcome };
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
