/**
 * A teammate paused while its model request ran, presumed dead and taken over, then woken (docs/
 * runtime.md "One reader per member"; acknowledged hand-out): the runtime's takes and
 * acknowledgements name its reader-claim token, so the woken one's acknowledgement is refused
 * READER_FENCED in the store's own step and its answer does not act — the message went back with
 * the lost claim and is its successor's, delivered once. Found by session 20's delivery helper: the
 * runtime's own takes were unfenced, and a failed acknowledgement was only logged, so the answer
 * acted and the successor answered the same message again.
 *
 * The pause is a lease that never beats (beat period one hour) with a 400 ms ttl: the claim dies
 * while the model call is held, as a SIGSTOPped process's would; a second runtime then takes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReaderLease } from '../../../src/core/members/reader-claim.js';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import { createScriptedModel } from '../../../src/runtime/models/scripted.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { openFsStores, openStores } from '../../../src/store/open.js';
import type { Stores } from '../../../src/store/selection.js';
import { startRedis, type RedisServer } from '../../helpers/redis-server.js';
import { takeOverFromAnotherHost, until } from '../../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

describe.each(['files', 'redis'] as const)('a woken teammate whose reader claim was taken over (%s)', (backend) => {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    if (backend === 'redis') server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function open(dir: TempDir): Promise<Stores> {
    return server ? openStores({ kind: 'redis', url: server.url, hostRoot: dir.path }) : openFsStores(dir.path);
  }

  it('does not act on its answer: the acknowledgement is READER_FENCED, the message stays unread for the successor, and the runtime stops', async () => {
    const dir = await makeTempDir();
    const stores = await open(dir);
    try {
      const team = `fenced${Date.now()}`;
      await createTeam({ root: stores, team });
      await spawnMember({ root: stores, team, name: 'alice' });
      const paused = await ReaderLease.take(stores, team, 'alice', 'in-process', { beatMs: 3_600_000, ttlMs: 400 });
      let called = false;
      let wake!: () => void;
      const held = new Promise<void>((resolve) => (wake = resolve));
      const model = createScriptedModel({
        turns: [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'acted' } }] }, { text: '' }],
        onCall: async (_request, index) => {
          if (index > 0) return;
          called = true;
          await held;
        },
      });
      const log: string[] = [];
      const running = runTeammate({ root: stores, team, name: 'alice', model, reader: paused, takesTasks: false, pollMs: 60_000, log: (l) => log.push(l) });
      await sendMessage({ root: stores, team, to: 'alice', text: 'do it' });
      await until(() => called, 20_000, 'the model call');
      // Presumed dead: its claim lapses and another runtime — another process, on another host — takes the member over.
      const successor = await takeOverFromAnotherHost(stores, team, 'alice', 20_000);
      try {
        wake();
        const exit = await running;
        expect(exit.reason).toBe('aborted');
        expect(log.join('\n')).toContain('lost the reader claim');
        expect((await readInbox({ root: stores, team, agent: 'team-lead' })).messages.map((m) => m.entry.text)).not.toContain('acted');
        expect(model.requests).toHaveLength(1);
        // The message is the successor's, handed out to it once.
        const { value } = await stores.team.takeUnread(team, 'alice', { reader: successor, claim: successor });
        expect(value.entries.map((e) => e.text)).toEqual(['do it']);
      } finally {
        await stores.team.releaseReader(team, 'alice', successor);
      }
    } finally {
      await stores.close();
      await dir.cleanup();
    }
  }, 60_000);
});
