/**
 * The filesystem backend's {@link Stores}: a team store and a host store over one root.
 */
import type { HostStore } from '../host-store.js';
import type { LockOptions } from './lock.js';
import type { StoreSelection, Stores } from '../selection.js';
import type { TeamStore } from '../team-store.js';
import { FsHostStore } from './host-store.js';
import { FsTeamStore } from './team-store.js';

/** Team and host store over one root directory. */
export class FsStores implements Stores {
  readonly team: TeamStore;
  readonly host: HostStore;

  constructor(root: string, lock: LockOptions = {}) {
    this.team = new FsTeamStore(root, lock);
    this.host = new FsHostStore(root, lock);
  }

  get selection(): StoreSelection {
    return this.team.selection;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
