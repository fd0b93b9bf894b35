/**
 * Issue 15, "on the way": the lead's side of the shutdown handshake was written twice
 * (runtime/host.ts and runtime/lifecycle/stop.ts), each with its own wait. Both now call
 * `shutdownHandshake`; its answers are checked here directly: approved by message, approved by the
 * member leaving the roster or by the runtime ending, rejected with the reason, and timed out.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { respondToShutdown } from '../../../src/core/members/shutdown.js';
import { removeMember } from '../../../src/core/members/spawn.js';
import { shutdownHandshake } from '../../../src/runtime/lifecycle/answer.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { openFsStores } from '../../../src/store/open.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
});
afterEach(() => dir.cleanup());

const base = () => ({ store: openFsStores(dir.path), team: 't', name: 'alice', timeoutMs: 5_000 });

describe('shutdownHandshake', () => {
  it('returns the answer the teammate sent, approved or rejected', async () => {
    let answering: Promise<unknown> = Promise.resolve();
    const approved = await shutdownHandshake({ ...base(), onSent: (requestId) => void (answering = respondToShutdown({ root: openFsStores(dir.path), team: 't', from: 'alice', requestId, approve: true })) });
    await answering;
    expect(approved.answer).toEqual({ kind: 'approved' });
    expect(approved.requestId).toMatch(/^shutdown-\d+@alice$/);
    const rejected = await shutdownHandshake({ ...base(), onSent: (requestId) => void (answering = respondToShutdown({ root: openFsStores(dir.path), team: 't', from: 'alice', requestId, approve: false, reason: 'busy' })) });
    await answering;
    expect(rejected.answer).toEqual({ kind: 'rejected', reason: 'busy' });
  });

  it('counts the member leaving the roster, or its runtime ending, as approved; silence as a timeout', async () => {
    expect((await shutdownHandshake({ ...base(), exited: new Promise((r) => setTimeout(r, 50)) })).answer).toEqual({ kind: 'approved' });
    expect((await shutdownHandshake({ ...base(), timeoutMs: 200 })).answer).toEqual({ kind: 'timeout' });
    let removing: Promise<unknown> = Promise.resolve();
    const gone = await shutdownHandshake({ ...base(), onSent: () => void (removing = removeMember({ root: openFsStores(dir.path), team: 't', name: 'alice' })) });
    await removing;
    expect(gone.answer).toEqual({ kind: 'approved' });
  });
});
