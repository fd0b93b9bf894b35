/**
 * The team-store contract suite (team-store.contract.ts) on the filesystem backend: each test gets a
 * fresh temporary root, opened through `openStores` as every command opens it.
 */
import { rm } from 'node:fs/promises';
import { openStores } from '../../src/store/open.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { teamStoreContract } from './team-store.contract.js';
import { handOutContract } from './handout.contract.js';
import { fencingContract } from './fencing.contract.js';
import { livenessClockContract } from './liveness-clock.contract.js';
import { pathLeaseContract } from './path-leases.contract.js';
import { batchedAppendContract } from './batched-appends.contract.js';
import { inboxChangesContract } from './inbox-changes.contract.js';
import { reopenDepartedContract } from './reopen-departed.contract.js';

const backend = {
  open: async () => {
    const dir = await makeTempDir('mailroom-contract-');
    return (await openStores({ kind: 'fs', root: dir.path })).team;
  },
  dispose: async (store: TeamStore) => {
    if (store.selection.kind === 'fs') await rm(store.selection.root, { recursive: true, force: true });
  },
};

teamStoreContract('filesystem', backend);
fencingContract('filesystem', backend);
livenessClockContract('filesystem', backend);
pathLeaseContract('filesystem', backend);
handOutContract('filesystem', backend);
batchedAppendContract('filesystem', backend);
inboxChangesContract('filesystem', backend);
reopenDepartedContract('filesystem', backend);
