/**
 * The filesystem backend's {@link Stores}: being rebuilt onto the intent-level contract (issue 15).
 * This placeholder lets the contract suite and `openStores` compile before the backend lands.
 */
import { MailroomError } from '../../errors.js';
import type { LockOptions } from '../lock.js';
import type { StoreSelection, Stores } from '../selection.js';
import type { HostStore } from '../host-store.js';
import type { TeamStore } from '../team-store.js';

/** Team and host store over one root. */
export class FsStores implements Stores {
  readonly selection: StoreSelection;
  constructor(root: string, _lock?: LockOptions) {
    this.selection = { kind: 'fs', root };
    throw new MailroomError('NOT_SUPPORTED', 'The filesystem TeamStore is not built yet on this branch.');
  }
  get team(): TeamStore {
    throw new Error('unreachable');
  }
  get host(): HostStore {
    throw new Error('unreachable');
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
