/**
 * Issue 15, "on the way" (runtime/turn.ts acknowledged delivered mail in a `finally`): a model call
 * that threw still marked the messages it carried read, so a crash after a failed request lost them
 * for good. Now delivery is a lease: acknowledged only after the request succeeded, released (and
 * withdrawn from the conversation) when it failed; the teammate retries after a short hold-back and
 * the message reaches the model exactly once in the conversation that succeeds.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailroomError } from '../../../src/errors.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { openFsStores } from '../../../src/store/open.js';
import { functionModel, until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
});
afterEach(() => dir.cleanup());

describe('a model call that fails', () => {
  it('leaves the message it carried unread, and delivers it once the model answers again', async () => {
    let failing = true;
    const model = functionModel(() => {
      if (failing) throw new MailroomError('MODEL_ERROR', 'the API is down');
      return { content: [{ type: 'text', text: 'got it' }], stopReason: 'end_turn' };
    });
    const stop = new AbortController();
    const store = openFsStores(dir.path).team;
    const running = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: stop.signal, takesTasks: false, pollMs: 100 });
    try {
      await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'important' });
      await until(() => model.requests.length >= 1, 10_000, 'the first (failing) model call');
      await until(async () => (await store.readEvents('t')).events.some((e) => e.kind === 'delivery' && e.state === 'released'), 5_000, 'the lease to be released');
      const [entry] = await store.readInbox('t', 'alice');
      expect(entry?.read).toBe(false);
      failing = false;
      await until(async () => (await store.readInbox('t', 'alice'))[0]?.read === true, 10_000, 'the retried delivery to be acknowledged');
      // The read flag lands before the journal line that reports it: wait for the event, not a sleep.
      await until(async () => (await store.readEvents('t')).events.some((e) => e.kind === 'delivery' && e.state === 'read'), 5_000, 'the read event');
      const ok = model.requests.at(-1)!;
      const mentions = JSON.stringify(ok.messages).split('important').length - 1;
      expect(mentions).toBe(1);
      const states = (await store.readEvents('t')).events.flatMap((e) => (e.kind === 'delivery' ? [e.state] : []));
      expect(states.slice(0, 2)).toEqual(['delivered', 'released']);
      expect(states.slice(-2)).toEqual(['delivered', 'read']);
    } finally {
      stop.abort();
      await running;
    }
  });
});
