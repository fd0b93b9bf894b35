/**
 * Reader claims (issue 9 item 1): one consumer per member. A claim is live while its last beat is
 * younger than its ttl; a new claim is refused while one is live, unless the caller proved that
 * exact holder dead (compare-and-set on host, pid and start time). Pure rules; a store backend
 * keeps the claims and applies these inside one atomic step.
 */
import { MailroomError } from '../errors.js';

/** How often a reader renews its claim (ms). */
export const BEAT_INTERVAL_MS = 5_000;
/** A claim without a beat for this long is dead (ms): three missed beats. */
export const DEFAULT_READER_TTL_MS = 3 * BEAT_INTERVAL_MS;

/** Who holds a claim, as far as these rules look at it. */
export interface ClaimHolder {
  kind: 'agent' | 'mcp' | 'in-process';
  host: string;
  pid: number;
  startedAt: number;
}

/** A claim as these rules look at it. */
export interface ClaimState extends ClaimHolder {
  lastBeatAt: number;
  ttlMs: number;
}

/** True while the claim's last beat is within its ttl at `now`. */
export function isLiveClaim(claim: Pick<ClaimState, 'lastBeatAt' | 'ttlMs'>, now: number): boolean {
  return claim.lastBeatAt + claim.ttlMs > now;
}

/** True when `claim` is held by exactly the holder `evict` names. */
export function isHolder(claim: Pick<ClaimHolder, 'host' | 'pid' | 'startedAt'>, evict: Pick<ClaimHolder, 'host' | 'pid' | 'startedAt'>): boolean {
  return claim.host === evict.host && claim.pid === evict.pid && claim.startedAt === evict.startedAt;
}

/** May a new claim replace `current`? Yes when there is none, it is dead, or `evict` names exactly its holder. */
export function mayTakeOver(current: ClaimState | undefined, now: number, evict?: Pick<ClaimHolder, 'host' | 'pid' | 'startedAt'>): boolean {
  if (!current || !isLiveClaim(current, now)) return true;
  return evict !== undefined && isHolder(current, evict);
}

const KIND_TEXT: Readonly<Record<ClaimHolder['kind'], string>> = {
  agent: 'a mailroom agent process',
  mcp: 'a mailroom mcp server',
  'in-process': 'an in-process runtime (mailroom run, or a library host)',
};

/**
 * TEAMMATE_RUNNING (exit 4) naming the live holder: two readers of one inbox would both consume
 * and answer it.
 */
export function readerTaken(team: string, member: string, holder: ClaimHolder): MailroomError {
  return new MailroomError(
    'TEAMMATE_RUNNING',
    `${member} already has a reader: ${KIND_TEXT[holder.kind]}, process ${holder.pid} on host ${holder.host} (started ${new Date(holder.startedAt).toISOString()}); ` +
      `a second reader would consume the same inbox. Stop it first (\`mailroom team stop ${member}\`), or wait until it exits.`,
    { details: { team, name: member, pid: holder.pid, holder: { kind: holder.kind, host: holder.host, pid: holder.pid, startedAt: holder.startedAt } } },
  );
}

/** TEAMMATE_RUNNING for a token that no longer holds the claim (taken over after it was presumed dead). */
export function claimLost(team: string, member: string, holder: ClaimHolder | undefined): MailroomError {
  if (holder) return readerTaken(team, member, holder);
  return new MailroomError('TEAMMATE_RUNNING', `${member}'s reader claim is gone (released, or the team was deleted): this reader must stop reading.`, { details: { team, name: member } });
}

/**
 * READER_FENCED (exit 4): a take or an acknowledgement by a reader whose claim token no longer
 * holds the member's claim (taken over after it was presumed dead, or released). Nothing was taken
 * or marked: what it had been handed goes (or went) back to the member's current reader.
 */
export function readerFenced(team: string, member: string, holder: ClaimHolder | undefined): MailroomError {
  const now = holder ? `it is now held by ${KIND_TEXT[holder.kind]}, process ${holder.pid} on host ${holder.host}` : 'no reader holds it now';
  return new MailroomError(
    'READER_FENCED',
    `This reader no longer holds ${member}'s reader claim (${now}): it may not take or acknowledge ${member}'s messages. ` +
      `Messages it was handed and did not acknowledge go to the current reader again (same msg_id, marked redelivered). Stop this reader.`,
    { details: { team, name: member, ...(holder ? { holder: { kind: holder.kind, host: holder.host, pid: holder.pid, startedAt: holder.startedAt } } : {}) } },
  );
}
