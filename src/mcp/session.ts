/**
 * What every MCP tool and resource works with: the store, the team, who "I" am, the shared watch,
 * and a stderr logger (stdout carries only the protocol).
 */
import type { Store } from '../store/store.js';
import { TeamWatch } from './team-watch.js';

/** Writes one diagnostic line. Never stdout: that is the MCP channel. */
export type Logger = (line: string) => void;

/** The default {@link Logger}: `mailroom mcp: <line>` on stderr. */
export const stderrLogger: Logger = (line) => {
  process.stderr.write(`mailroom mcp: ${line}\n`);
};

/** State shared by the tools of one MCP server. */
export class McpSession {
  /** Shared store watch (started on first wait or resource subscription). */
  readonly watch: TeamWatch;
  private consuming: Promise<unknown> = Promise.resolve();
  private readonly closing = new AbortController();

  constructor(
    readonly store: Store,
    readonly team: string,
    /** The member name this server acts as (sender, claimant, inbox owner). */
    readonly me: string,
    readonly log: Logger = stderrLogger,
  ) {
    this.watch = new TeamWatch(store, team);
  }

  /** The options every core use case takes. */
  get target(): { root: Store; team: string } {
    return { root: this.store, team: this.team };
  }

  /**
   * Runs `fn` after every earlier consumer finished, so two concurrent inbox reads of this server
   * never hand out (and mark read) the same message twice.
   */
  consume<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.consuming.then(fn, fn);
    this.consuming = run.catch(() => undefined);
    return run;
  }

  /** Aborted by {@link close}: pending waits end at once instead of holding the process open. */
  get closed(): AbortSignal {
    return this.closing.signal;
  }

  /** Ends pending waits and releases the watch. */
  close(): Promise<void> {
    this.closing.abort();
    return this.watch.close();
  }
}
