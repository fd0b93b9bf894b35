/**
 * Issue 9: any mix of reader kinds × any sends → each message handed out exactly once (fast-check,
 * real files and locks in a temp dir). Readers of every kind a member can have — a `mailroom agent`
 * (leases, acknowledged after its turn, some released for a retry), an MCP server (consumes on
 * hand-out: `acknowledge` in the take) and an in-process teammate — start, read and stop in random
 * order, concurrently with the sends. Each reader holds the member's reader claim while it reads
 * (ReaderLease, the same as every reader path); a second is refused with TEAMMATE_RUNNING. At the
 * end one reader drains the inbox: every sent message has been consumed exactly once — none
 * twice, none lost.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMailroomError } from '../../src/errors.js';
import { sendMessage } from '../../src/core/messages/send.js';
import { ReaderLease } from '../../src/core/members/reader-claim.js';
import { openFsStores } from '../../src/store/open.js';
import type { Stores } from '../../src/store/selection.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { makeTeam } from '../helpers/team-setup.js';

const KINDS = ['agent', 'mcp', 'in-process'] as const;
type Kind = (typeof KINDS)[number];

const session = fc.record({
  kind: fc.constantFrom(...KINDS),
  /** Takes this reader makes before it stops (each of at most `limit` entries). */
  takes: fc.array(fc.record({ limit: fc.integer({ min: 1, max: 4 }), release: fc.boolean() }), { minLength: 1, maxLength: 4 }),
});
const scenario = fc.record({
  /** Batches of sends, each sent while the readers of the same round run. */
  rounds: fc.array(fc.record({ sends: fc.integer({ min: 0, max: 6 }), readers: fc.array(session, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 4 }),
});

interface Tally {
  consumed: string[];
  refused: number;
}

/** One reader: takes the claim (or is refused), takes and acknowledges (or releases) entries, gives the claim up. */
async function read(stores: Stores, kind: Kind, takes: ReadonlyArray<{ limit: number; release: boolean }>, tally: Tally): Promise<void> {
  let lease: ReaderLease;
  try {
    lease = await ReaderLease.take(stores, 't', 'alice', kind);
  } catch (err) {
    if (!isMailroomError(err, 'TEAMMATE_RUNNING')) throw err;
    tally.refused++;
    return;
  }
  try {
    for (const t of takes) {
      if (kind === 'mcp') {
        const { value } = await stores.team.takeUnread('t', 'alice', { reader: lease.token, limit: t.limit, acknowledge: true });
        tally.consumed.push(...value.entries.map((e) => e.text));
        continue;
      }
      const { value } = await stores.team.takeUnread('t', 'alice', { reader: lease.token, limit: t.limit });
      if (value.id === '') continue;
      if (t.release) await stores.team.release('t', 'alice', value.id);
      else {
        await stores.team.acknowledge('t', 'alice', value.id);
        tally.consumed.push(...value.entries.map((e) => e.text));
      }
    }
  } finally {
    await lease.release();
  }
}

describe('exactly once, whatever the readers', () => {
  it('each message is consumed exactly once by any mix of reader kinds and sends', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const tmp = await makeTempDir('mailroom-exactly-once-');
        try {
          await makeTeam(tmp.path, 't', ['alice']);
          const stores = openFsStores(tmp.path);
          const tally: Tally = { consumed: [], refused: 0 };
          const sent: string[] = [];
          for (const [r, round] of s.rounds.entries()) {
            const texts = Array.from({ length: round.sends }, (_, i) => `r${r}m${i}`);
            sent.push(...texts);
            await Promise.all([
              (async () => {
                for (const text of texts) await sendMessage({ root: stores, team: 't', to: 'alice', text });
              })(),
              ...round.readers.map((reader) => read(stores, reader.kind, reader.takes, tally)),
            ]);
          }
          // A last reader drains what is left; then every message was consumed once.
          await read(stores, 'agent', Array.from({ length: sent.length + 1 }, () => ({ limit: 4, release: false })), tally);
          expect([...tally.consumed].sort()).toEqual([...sent].sort());
          expect(new Set(tally.consumed).size).toBe(tally.consumed.length);
          expect(await stores.team.readClaims('t')).toEqual([]);
        } finally {
          await tmp.cleanup();
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
