/**
 * Waits with a time limit end on time even while the garbage collector runs. On Node 20,
 * `AbortSignal.any([AbortSignal.timeout(ms)])` can be collected before it fires
 * (nodejs/node#57736): `team stop` and the end of `mailroom run` waited forever on a teammate that
 * never answered. The collector is forced every 10 ms here, as a long wait would meet it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestShutdown } from '../../../src/core/members/shutdown.js';
import { openFsStores } from '../../../src/store/open.js';
import { deadline } from '../../../src/runtime/deadline.js';
import { awaitShutdownAnswer } from '../../../src/runtime/lifecycle/answer.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let dir: TempDir;
let collector: NodeJS.Timeout;
beforeEach(async () => {
  dir = await makeTempDir('mailroom-deadline-');
  collector = setInterval(gc, 10);
});
afterEach(async () => {
  clearInterval(collector);
  await dir.cleanup();
});

describe('time limits under garbage collection', () => {
  it('deadline() aborts after its time with a TimeoutError', async () => {
    const { signal } = deadline(300);
    const reason = await new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
    expect(reason).toMatchObject({ name: 'TimeoutError' });
  });

  it('deadline() follows its sources, and dispose() stops the timer', async () => {
    const source = new AbortController();
    const linked = deadline(60_000, undefined, source.signal);
    source.abort(new Error('stop'));
    expect(linked.signal.aborted).toBe(true);
    expect((linked.signal.reason as Error).message).toBe('stop');
    const disposed = deadline(50);
    disposed.dispose();
    await new Promise((r) => setTimeout(r, 200));
    expect(disposed.signal.aborted).toBe(false);
  });

  it('an unanswered shutdown request times out', async () => {
    await makeTeam(dir.path, 't', ['alice']);
    const store = openFsStores(dir.path);
    const { requestId } = await requestShutdown({ root: store, team: 't', to: 'alice' });
    const answer = await awaitShutdownAnswer({ store, team: 't', name: 'alice', requestId, timeoutMs: 600 });
    expect(answer).toEqual({ kind: 'timeout' });
  }, 15_000);
});
