/**
 * A Redis reader's looks at its own inbox, carried by the append that filled it (issue 24: send →
 * an idle agent's next model request). append-messages.lua publishes, on the recipient's own
 * channel ({@link inboxLookChannel}) and before the team's `inbox <member>` hint, what the
 * recipient's take would hand out right after that append — its documents, when they are all of
 * the inbox's unread entries — and the view stamp the send was checked under. A subscribed reader
 * keeps the latest one here; {@link InboxLooks.take} hands it to a teammate woken by that hint,
 * which makes its model request for them before its take commits and acts on the answer only
 * once the take handed out exactly those entries under the same stamp (src/runtime/turn.ts
 * `commitLooked`: the one rule, shared with the files store's `lookUnread`).
 *
 * A look is a guess, never a hand-out: a missed, late, forged or oversized one costs at most a
 * request that is cancelled and never acts (the take's comparison decides), and no look at all
 * is the take-first path of before. So it is dropped, not trusted, whenever it may be stale: a
 * take of the member started or ended after it came, or it arrived while one was in flight.
 */
import type { UnreadLook, WatchHandle } from '../team-store.js';
import { assembleEntry } from './codec.js';
import { inboxLookChannel } from './keys.js';
import type { Watcher } from './watch.js';

/** The most entries one published look carries (append-messages.lua LOOK_MAX_ENTRIES). */
export const LOOK_MAX_ENTRIES = 16;

/**
 * A published look (`<view stamp>\n<entry JSON>\n…`) as an {@link UnreadLook}, or undefined when
 * it is not one (no stamp, no entry, an entry that is not a JSON object with a string `from` and
 * `text`, more than {@link LOOK_MAX_ENTRIES}).
 */
export function parseLook(message: string): UnreadLook | undefined {
  const lines = message.split('\n');
  const viewStamp = lines[0];
  if (!viewStamp || lines.length < 2 || lines.length - 1 > LOOK_MAX_ENTRIES) return undefined;
  try {
    const entries = lines.slice(1).map((doc) => assembleEntry(doc, true));
    if (!entries.every((e) => typeof e === 'object' && e !== null && typeof e.from === 'string' && typeof e.text === 'string')) return undefined;
    return { entries, viewStamp };
  } catch {
    return undefined;
  }
}

/** The looks of one store's subscribed readers, by team and member. */
export class InboxLooks {
  private readonly kept = new Map<string, UnreadLook>();
  /** Takes in flight by team and member: a look that arrives meanwhile may predate them, and is dropped. */
  private readonly taking = new Map<string, number>();

  constructor(private readonly watcher: Watcher) {}

  /** Keeps `member`'s looks from now on, until the handle is closed. Resolves once subscribed (not confirmed: see {@link Watcher.watchChannel}). */
  async watch(team: string, member: string): Promise<WatchHandle> {
    const key = keyOf(team, member);
    const handle = await this.watcher.watchChannel(inboxLookChannel(team, member), (message) => {
      if ((this.taking.get(key) ?? 0) > 0) return;
      const look = parseLook(message);
      if (look) this.kept.set(key, look);
      else this.kept.delete(key);
    });
    return {
      close: async () => {
        this.kept.delete(key);
        await handle.close();
      },
    };
  }

  /** The look kept for `member` since its last take, once (undefined: none, or it was dropped). */
  take(team: string, member: string): UnreadLook | undefined {
    const key = keyOf(team, member);
    const look = this.kept.get(key);
    this.kept.delete(key);
    return look;
  }

  /** Runs a take of `member`'s inbox: every look kept before it ends, or arriving while it runs, is dropped. */
  async during<T>(team: string, member: string, take: () => Promise<T>): Promise<T> {
    const key = keyOf(team, member);
    this.kept.delete(key);
    this.taking.set(key, (this.taking.get(key) ?? 0) + 1);
    try {
      return await take();
    } finally {
      const left = this.taking.get(key)! - 1;
      if (left > 0) this.taking.set(key, left);
      else this.taking.delete(key);
      this.kept.delete(key);
    }
  }
}

function keyOf(team: string, member: string): string {
  return `${team}\0${member}`;
}
