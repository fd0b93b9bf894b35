/**
 * Reader claims on Redis: one hash per member, taken, renewed and released by one script each.
 * Beats are stamped, and liveness judged, by the server's clock (`TIME` inside the scripts), never
 * the caller's (issue 21 item 3): a beat held up by a stall counts from when it landed, and the
 * callers' clocks may differ from each other and from the server's.
 */
import { randomUUID } from '../../protocol/random.js';
import type { ClaimReaderOptions, OpContext, ReaderClaim, ReaderHolder, Transition } from '../team-store.js';
import { envOf, runOnce, type RedisContext } from './context.js';
import { fieldsOf } from './reply.js';
import { DEFAULT_READER_TTL_MS } from '../../domain/reader-claims.js';


/** A claim from its stored fields. */
function claimOf(flat: readonly string[], blankToken: boolean): ReaderClaim {
  const f = fieldsOf(flat);
  return {
    member: f.get('member') ?? '',
    kind: (f.get('kind') ?? 'agent') as ReaderHolder['kind'],
    host: f.get('host') ?? '',
    pid: Number(f.get('pid')),
    startedAt: Number(f.get('startedAt')),
    token: blankToken ? '' : (f.get('token') ?? ''),
    lastBeatAt: Number(f.get('lastBeatAt')),
    state: (f.get('state') ?? 'working') as ReaderClaim['state'],
    ttlMs: Number(f.get('ttlMs')),
  };
}

/** Takes the member's reader claim. @throws TEAMMATE_RUNNING, MEMBER_NOT_FOUND */
export async function claimReader(rc: RedisContext, team: string, member: string, holder: ReaderHolder, options: ClaimReaderOptions = {}): Promise<Transition<ReaderClaim>> {
  const evict = options.evict ? [options.evict.host, String(options.evict.pid), String(options.evict.startedAt)] : ['', '', ''];
  const args = [envOf(team, options), member, holder.kind, holder.host, String(holder.pid), String(holder.startedAt), randomUUID(), String(options.ttlMs ?? DEFAULT_READER_TTL_MS), '', ...evict];
  const out = await runOnce(rc, 'claim-reader', team, args, { who: member });
  return { value: claimOf(out.value as string[], false), events: out.events };
}

/** Renews a claim. @throws TEAMMATE_RUNNING when the token no longer holds it */
export async function beat(rc: RedisContext, team: string, member: string, token: string, state: ReaderClaim['state'], _ctx?: OpContext): Promise<Transition<ReaderClaim>> {
  const out = await runOnce(rc, 'beat', team, [member, token, state], { who: member });
  return { value: claimOf(out.value as string[], false), events: out.events };
}

/** Gives a claim up; the leases it took go back to unread (release-reader.lua). */
export async function releaseReader(rc: RedisContext, team: string, member: string, token: string, ctx?: OpContext): Promise<Transition<void>> {
  const out = await runOnce(rc, 'release-reader', team, [envOf(team, ctx), member, token]);
  return { value: undefined, events: out.events };
}

/** Every claim, tokens blanked. */
export async function readClaims(rc: RedisContext, team: string): Promise<ReaderClaim[]> {
  const rows = (await runOnce(rc, 'read-claims', team, [])).value as string[][];
  return rows.map((r) => claimOf(r, true)).sort((a, b) => (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
}

/** The server's clock (epoch ms, `TIME`). */
export async function readClock(rc: RedisContext, team: string): Promise<number> {
  return Number((await runOnce(rc, 'read-clock', team, [])).value as string);
}
