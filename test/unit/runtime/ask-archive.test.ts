/**
 * Correlation survives archiving (issue 21 item 7): a mailroom-run teammate archives its inbox
 * after 200 read entries, right after acknowledging a delivery and before the turn's tool calls
 * run; a reply sent then without an explicit in_reply_to must still be linked to its ask. Every
 * ~200th `team ask` timed out before (#199, #398). A real in-process teammate whose model answers
 * each question it is delivered with a plain SendMessage to the lead (no in_reply_to: the runtime
 * links it to the lead's open ask), on real files and on a real redis-server. Asks go ten at a
 * time (the teammate gets them in batches and answers them in delivery order) to keep the run short.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../../../src/core/messages/ask.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { createTeam } from '../../../src/core/teams/team-lifecycle.js';
import type { ModelResponse } from '../../../src/runtime/models/types.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { openStores } from '../../../src/store/open.js';
import type { Stores } from '../../../src/store/selection.js';
import { startRedis, type RedisServer } from '../../helpers/redis-server.js';
import { functionModel, lastUserText, until } from '../../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

const AT_ONCE = 10;
let redis: RedisServer;
let dir: TempDir;
beforeAll(async () => {
  redis = await startRedis();
  dir = await makeTempDir('mailroom-ask-archive-');
});
afterAll(async () => {
  await redis?.stop();
  await dir?.cleanup();
});

/** Alice answers every question delivered to her ("question <i>") with SendMessage "answer <i>", in order. */
function startAlice(stores: Stores, team: string): () => Promise<unknown> {
  const model = functionModel((request): ModelResponse => {
    const asked = [...lastUserText(request).matchAll(/question (\d+)/g)].map((m) => m[1]!);
    if (asked.length === 0) return { content: [{ type: 'text', text: '' }], stopReason: 'end_turn' };
    return { content: asked.map((i) => ({ type: 'tool_use' as const, id: `call-${i}`, name: 'SendMessage', input: { to: 'team-lead', message: `answer ${i}` } })), stopReason: 'tool_use' };
  });
  const controller = new AbortController();
  const running = runTeammate({ root: stores, team, name: 'alice', model, signal: controller.signal, takesTasks: false });
  return () => (controller.abort(), running);
}

/** Asks `n` questions, {@link AT_ONCE} at a time; returns the numbers whose reply did not come back linked. */
async function askMany(stores: Stores, team: string, n: number): Promise<number[]> {
  const failed: number[] = [];
  for (let start = 0; start < n && failed.length === 0; start += AT_ONCE) {
    const wave = Array.from({ length: Math.min(AT_ONCE, n - start) }, (_, k) => start + k);
    await Promise.all(
      wave.map(async (i) => {
        const got = await ask({ root: stores, team, to: 'alice', text: `question ${i}`, timeoutMs: 15_000 }).catch(() => undefined);
        if (got?.reply.text !== `answer ${i}`) failed.push(i);
      }),
    );
  }
  return failed.sort((a, b) => a - b);
}

// 200 crosses the archive threshold once, 400 twice. (1000 asks took over 5 min on a loaded CI-like machine: the asker re-reads its whole inbox per hint.)
const cases: Array<[string, number]> = [
  ['files', 200],
  ['redis', 400],
];

describe('ask and reply stay linked across inbox archiving', () => {
  it.each(cases)('%s: links all of %i asks to their replies', async (backend, n) => {
    const team = `t-${backend}-${n}`;
    const stores = await (backend === 'files' ? openStores({ kind: 'fs', root: dir.path }) : openStores({ kind: 'redis', url: redis.url, hostRoot: dir.path }));
    await createTeam({ root: stores, team });
    await spawnMember({ root: stores, team, name: 'alice' });
    const stop = startAlice(stores, team);
    try {
      await until(async () => (await stores.team.readClaims(team)).some((c) => c.member === 'alice'), 10_000, 'alice to start');
      const failed = await askMany(stores, team, n);
      expect(failed, `asks without their linked reply: #${failed.join(', #')}`).toEqual([]);
      const history = await stores.team.readInboxHistory(team, 'alice');
      expect(history.archived.length).toBeGreaterThanOrEqual(Math.floor(n / 200) * 190); // it did archive, more than once for 400 and 1000
    } finally {
      await stop();
      await stores.close();
    }
  }, 300_000);
});
