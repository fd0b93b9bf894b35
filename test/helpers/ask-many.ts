/** Many asks of `alice` by the lead, for the correlation-across-archiving tests (issue 21 item 7). */
import { ask } from '../../src/core/messages/ask.js';
import type { Stores } from '../../src/store/selection.js';

/**
 * Asks `n` questions, `atOnce` at a time; returns the numbers whose reply did not come back
 * linked. Between waves the lead's inbox is archived (its replies were marked read by `ask`), as a
 * lead that reads its inbox does: an asker re-reads its whole inbox on each hint, so 1 000 replies
 * left in it make the run quadratic (docs/reliability.md "Correlation survives archiving").
 * `settle` runs after each wave.
 */
export async function askMany(stores: Stores, team: string, n: number, atOnce: number, settle?: () => Promise<unknown>): Promise<number[]> {
  const failed: number[] = [];
  for (let start = 0; start < n && failed.length === 0; start += atOnce) {
    const wave = Array.from({ length: Math.min(atOnce, n - start) }, (_, k) => start + k);
    await Promise.all(
      wave.map(async (i) => {
        const got = await ask({ root: stores, team, to: 'alice', text: `question ${i}`, timeoutMs: 30_000 }).catch((err: unknown) => err as Error);
        if (got instanceof Error || got.reply.text !== `answer ${i}` || got.reply.in_reply_to !== got.ask.entry.msg_id) {
          failed.push(i);
          if (process.env.MAILROOM_ASK_VERBOSE) process.stdout.write(`ask #${i}: ${got instanceof Error ? `${(got as { code?: string }).code ?? ''} ${got.message}` : `reply ${JSON.stringify(got.reply)}`}\n`);
        }
      }),
    );
    await stores.team.archiveInbox(team, 'team-lead');
    // E.g. until alice's turn ended, so the next question starts a turn of its own.
    await settle?.();
  }
  return failed.sort((a, b) => a - b);
}

