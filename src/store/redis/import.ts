/**
 * Bulk import of a whole team on Redis ({@link TeamStore.importTeam}): one script
 * (lua/import-team.lua) writes the new generation whole, so the team appears complete or not at
 * all. Documents stay opaque (the JSON text built here, as every other transition does); what
 * the scripts reason about later — read state, identity keys, the inbox's latest instant, task
 * status, owner and links — is computed here and kept beside them.
 */
import { createHash } from 'node:crypto';
import { randomUUID } from '../../protocol/random.js';
import { checkTeamImage, INT64_MAX } from '../../domain/team-image.js';
import { entryKey } from '../../domain/entries.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { InboxEntry } from '../../protocol/inbox.js';
import { canonicalTask } from '../../protocol/task.js';
import type { InboxImage, OpContext, TeamImage, Transition } from '../team-store.js';
import { configSkeleton, splitFence } from './codec.js';
import { runOnce, type RedisContext } from './context.js';
import { TEAMS_KEY } from './keys.js';

/** Imports `image` as a new team. @throws TEAM_EXISTS, MEMBER_EXISTS, INVALID_ARGUMENT */
export async function importTeam(rc: RedisContext, image: TeamImage, _ctx?: OpContext): Promise<Transition<TeamConfig>> {
  checkTeamImage(image, INT64_MAX);
  const { config } = image;
  const team = config.name;
  const args = [team, configSkeleton(config), config.leadAgentId, randomUUID(), image.highWatermark];
  args.push(String(config.members.length), ...config.members.flatMap((m) => [m.name, m.name.toLowerCase(), m.agentId, JSON.stringify(m)]));
  args.push(String(image.memberRecords.length), ...image.memberRecords.flatMap((r) => [r.name, JSON.stringify(r)]));
  args.push(String(image.inboxes.length), ...image.inboxes.flatMap(inboxArgs));
  args.push(String(image.tasks.length));
  for (const task of image.tasks) {
    const hasOwner = task.owner !== undefined;
    const { doc, fence } = splitFence(canonicalTask(task, Object.keys(task)));
    args.push(task.id, JSON.stringify(doc), task.status, hasOwner ? '1' : '0', task.owner ?? '', JSON.stringify(task.blocks), JSON.stringify(task.blockedBy), task.metadata?._internal === true ? '1' : '0', fence);
  }
  args.push(String(image.events.length), ...image.events.map((e) => JSON.stringify(e)));
  await runOnce(rc, 'import-team', team, args, {}, [TEAMS_KEY]);
  return { value: config, events: [] };
}

/** One inbox's arguments: its name, counts, latest instant and its tail, entries, archive. */
function inboxArgs(inbox: InboxImage): string[] {
  const { lastMs, tail } = latest(inbox.entries);
  const out = [inbox.name, String(inbox.entries.length), String(inbox.archived.length), lastMs, String(tail.length), ...tail];
  for (const e of inbox.entries) out.push(JSON.stringify(e), entryKey(e), e.read === true ? '1' : '0');
  for (const e of inbox.archived) out.push(JSON.stringify(e));
  return out;
}

/**
 * The inbox's latest timestamp (epoch ms, '' when none parses) and the SHA-1s of from\0text of its
 * entries at that instant: what append-messages.lua keeps in `i:last`/`i:tail` so that a later
 * append never goes before it nor repeats (from, timestamp, text).
 */
function latest(entries: readonly InboxEntry[]): { lastMs: string; tail: string[] } {
  let last = -1;
  for (const e of entries) {
    const ms = Date.parse(e.timestamp);
    if (Number.isFinite(ms) && ms > last) last = ms;
  }
  if (last < 0) return { lastMs: '', tail: [] };
  const tail = new Set<string>();
  for (const e of entries) if (Date.parse(e.timestamp) === last) tail.add(createHash('sha1').update(`${e.from}\0${e.text}`, 'utf8').digest('hex'));
  return { lastMs: String(last), tail: [...tail] };
}
