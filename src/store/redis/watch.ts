/**
 * Watching a Redis team: push, never polling. Every transition script PUBLISHes its hints
 * (one message, one line per hint: `config`, `inbox <member>`, `task <id>`, `task`, `events`,
 * `claims <member>`) on the team's channel in the same step; watchers SUBSCRIBE on one shared
 * subscriber connection. Pub/sub is at most once, so after a reconnect (node-redis subscribes
 * again by itself) every listener gets a hint for everything, to re-read what it may have missed.
 */
import type { StoreHint, WatchHandle } from '../team-store.js';
import type { Client, RedisConnection } from './connection.js';
import { hintChannel } from './keys.js';

type Listener = (hint: StoreHint) => void;

/** Parses one published line into a hint (undefined for an unknown line). */
export function parseHint(team: string, line: string): StoreHint | undefined {
  const space = line.indexOf(' ');
  const word = space < 0 ? line : line.slice(0, space);
  const arg = space < 0 ? undefined : line.slice(space + 1);
  switch (word) {
    case 'config':
      return { kind: 'config', team };
    case 'events':
      return { kind: 'events', team };
    case 'inbox':
      return arg === undefined ? undefined : { kind: 'inbox', team, member: arg };
    case 'task':
      return arg === undefined ? { kind: 'task', team } : { kind: 'task', team, id: arg };
    case 'claims':
      return arg === undefined ? { kind: 'claims', team } : { kind: 'claims', team, member: arg };
    default:
      return undefined;
  }
}

/** The subscriber connection of one store and its listeners by team. */
export class Watcher {
  private sub: Client | undefined;
  private opening: Promise<Client> | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private lostConnection = false;

  constructor(
    private readonly conn: RedisConnection,
    /** Inbox names of a team, for the catch-up hints after a reconnect. */
    private readonly inboxesOf: (team: string) => Promise<string[]>,
  ) {}

  /** Starts hinting `listener`; resolves once subscribed. */
  async watch(team: string, listener: Listener): Promise<WatchHandle> {
    const sub = await this.subscriber();
    let set = this.listeners.get(team);
    if (!set) {
      set = new Set();
      this.listeners.set(team, set);
      const listeners = set;
      try {
        await sub.subscribe(hintChannel(team), (message: string) => {
          for (const line of message.split('\n')) {
            const hint = parseHint(team, line);
            if (hint) for (const l of listeners) l(hint);
          }
        });
      } catch (err) {
        this.listeners.delete(team);
        throw this.conn.unavailable(err);
      }
    }
    set.add(listener);
    return { close: () => this.unwatch(team, listener) };
  }

  /**
   * Subscribes `listener` to one more channel on the same subscriber connection (so its messages
   * and the team channel's arrive in the order the server published them). Resolves once issued,
   * without waiting for the server's confirmation: `confirmed` settles with it (a user granted
   * before the channel existed is refused NOPERM, and the caller goes on without it).
   */
  async watchChannel(channel: string, listener: (message: string) => void): Promise<WatchHandle & { confirmed: Promise<void> }> {
    const sub = await this.subscriber();
    const confirmed = sub.subscribe(channel, listener);
    confirmed.catch(() => undefined);
    return { confirmed, close: () => (this.sub?.isReady ? this.sub.unsubscribe(channel).catch(() => undefined) : Promise.resolve()) };
  }

  /** Closes the subscriber connection. */
  async close(): Promise<void> {
    this.listeners.clear();
    const sub = this.sub;
    this.sub = undefined;
    if (sub?.isOpen) await sub.close().catch(() => sub.destroy());
  }

  private async unwatch(team: string, listener: Listener): Promise<void> {
    const set = this.listeners.get(team);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(team);
    if (this.sub?.isReady) await this.sub.unsubscribe(hintChannel(team)).catch(() => undefined);
  }

  private async subscriber(): Promise<Client> {
    if (this.sub) return this.sub;
    this.opening ??= this.conn.duplicate().then((sub) => {
      sub.on('error', () => {
        this.lostConnection = true;
      });
      sub.on('ready', () => {
        if (!this.lostConnection) return;
        this.lostConnection = false;
        void this.catchUp();
      });
      this.sub = sub;
      return sub;
    });
    try {
      return await this.opening;
    } finally {
      this.opening = undefined;
    }
  }

  private async catchUp(): Promise<void> {
    for (const [team, set] of this.listeners) {
      const hints: StoreHint[] = [{ kind: 'config', team }, { kind: 'task', team }, { kind: 'events', team }, { kind: 'claims', team }];
      const inboxes = await this.inboxesOf(team).catch(() => [] as string[]);
      for (const member of inboxes) hints.push({ kind: 'inbox', team, member });
      for (const hint of hints) for (const l of set) l(hint);
    }
  }
}
