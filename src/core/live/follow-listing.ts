/**
 * Follows a listing of things with ids (open requests, live leases): lists once, then again on each
 * `refresh()`, and reports what appeared and what went. Refreshes that arrive while one runs fold
 * into one more listing after it, so a burst of changes costs at most two reads.
 */

/** What a listing found changed: the whole list now, the items that appeared and those that went. */
export interface ListingChange<T> {
  items: T[];
  added: T[];
  removed: T[];
}

/** A followed listing: the latest list and a way to list again. */
export interface ListingFollower<T> {
  /** The initial listing (empty when it failed). */
  initial: T[];
  /** The latest listing. */
  current(): T[];
  /** Lists again; resolves once the listing (and any refresh asked for meanwhile) is done. */
  refresh(): Promise<void>;
}

/**
 * Lists with `list` once, then on each refresh; `onChange` is called after a listing that found an
 * item added or removed (by `id`). A listing that fails keeps the previous list and reports the
 * error to `onError`; it never rejects.
 */
export async function followListing<T extends { id: string }>(list: () => Promise<T[]>, onChange: (change: ListingChange<T>) => void, onError: (err: unknown) => void): Promise<ListingFollower<T>> {
  let items: T[] = [];
  try {
    items = await list();
  } catch (err) {
    onError(err);
  }
  const initial = items;
  const once = async () => {
    try {
      const next = await list();
      const before = new Set(items.map((i) => i.id));
      const now = new Set(next.map((i) => i.id));
      const added = next.filter((i) => !before.has(i.id));
      const removed = items.filter((i) => !now.has(i.id));
      items = next;
      if (added.length > 0 || removed.length > 0) onChange({ items, added, removed });
    } catch (err) {
      onError(err);
    }
  };
  let running: Promise<void> | undefined;
  let again = false;
  const refresh = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await once();
      } while (again);
      running = undefined;
    })();
    return running;
  };
  return { initial, current: () => items, refresh };
}
