/**
 * The in-process backend: many teammates in one process, sharing one watch of the team. Each runs
 * under its own AbortController (shutdown aborts its model call and tools) and its own
 * AsyncLocalStorage context. The host also plays the lead's side of the shutdown handshake.
 */
import { storeOf, type StoreRef } from '../core/context.js';
import { completeShutdown, requestShutdown } from '../core/shutdown.js';
import type { Store } from '../store/store.js';
import { awaitShutdownAnswer, DEFAULT_SHUTDOWN_TIMEOUT_MS, type ShutdownAnswer } from './lifecycle/answer.js';
import type { Model } from './models/types.js';
import { runTeammate, type TeammateExit, type TeammateOptions, type TeammateState } from './teammate.js';
import { TeamSignals } from './wake/signals.js';
import { deadline } from './deadline.js';

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
  /** Settles when the teammate stops (rejects only on an unexpected crash). */
  readonly done: Promise<TeammateExit>;
}

/** Result of {@link InProcessHost.stop}. */
export type HostStopResult = { name: string; outcome: 'approved' | 'timeout' | 'forced' | 'already-stopped' } | { name: string; outcome: 'rejected'; reason: string };

interface Entry {
  name: string;
  state: TeammateState;
  done: Promise<TeammateExit>;
  controller: AbortController;
}

/** Hosts in-process teammates of one team. */
export class InProcessHost {
  private readonly entries = new Map<string, Entry>();

  private constructor(
    private readonly store: Store,
    private readonly options: HostOptions,
    private readonly signals: TeamSignals,
  ) {}

  /** Opens the host (starts watching the team). */
  static async open(options: HostOptions): Promise<InProcessHost> {
    const store = storeOf(options.root);
    return new InProcessHost(store, options, await TeamSignals.open(store, options.team, { pollMs: options.pollMs }));
  }

  /** Starts teammate `name` (a registered member) with `model`. */
  add(name: string, model: Model, extra: Partial<Omit<TeammateOptions, 'root' | 'team' | 'name' | 'model' | 'signal' | 'signals'>> = {}): HostedTeammate {
    const controller = new AbortController();
    const entry: Entry = { name, state: 'starting', controller, done: Promise.resolve({ reason: 'aborted' }) };
    const log = (line: string) => this.options.log?.(name, line);
    entry.done = runTeammate({
      ...extra,
      root: this.store,
      team: this.options.team,
      name,
      model,
      signal: controller.signal,
      signals: this.signals,
      log,
      onState: (s) => ((entry.state = s), extra.onState?.(s), this.options.onState?.(name, s)),
    });
    this.entries.set(name, entry);
    return entry;
  }

  /** The team's shared wake-up hints (for the lead's side: following its inbox, waiting for quiet). */
  get hints(): TeamSignals {
    return this.signals;
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
    const { requestId } = await requestShutdown({ root: this.store, team: this.options.team, to: name, reason: o.reason });
    const waiting = new AbortController();
    const stopWaiting = deadline(undefined, waiting.signal, o.signal);
    const answer = await Promise.race([
      awaitShutdownAnswer({ store: this.store, team: this.options.team, name, requestId, timeoutMs: o.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS, signals: this.signals, signal: stopWaiting.signal }),
      entry.done.then((): ShutdownAnswer => ({ kind: 'approved' })),
    ]).finally(() => (waiting.abort(), stopWaiting.dispose()));
    if (answer.kind === 'rejected') return { name, outcome: 'rejected', reason: answer.reason };
    if (answer.kind === 'timeout') return this.force(entry, 'timeout');
    const exited = await Promise.race([entry.done.then(() => true), sleep(5_000).then(() => false)]);
    return exited ? { name, outcome: 'approved' } : this.force(entry, 'approved');
  }

  /** Aborts every teammate still running, waits for them and stops watching. */
  async close(): Promise<void> {
    for (const e of this.entries.values()) e.controller.abort(new Error('host closed'));
    await Promise.allSettled([...this.entries.values()].map((e) => e.done));
    await this.signals.close();
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
