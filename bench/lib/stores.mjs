// The two backends as bench/80-redis-store drives them, both through the TeamStore interface:
// team t with members a..d, appends to team-lead's inbox, and claims; and the two node-redis
// baselines of bench 80's append rows (issue 24 item 2, docs/decisions.md "The writers' floor is
// the store's own append, one per await"):
//   floor   — node-redis sending the store's OWN append transition for one message (the
//             append-messages script, with the keys and arguments the store sends), one per await,
//             no combining: the same append done the straightforward way;
//   trivial — node-redis, one trivial EVALSHA (an INCR) per await: a round trip alone, no append.
import { openStores } from '../../dist/store/open.js';
import { makeTeam } from './setup.mjs';

const LEAD = { agentId: 'team-lead@t', name: 'team-lead' };
const DIST = new URL('../../dist/', import.meta.url);

/** The Redis team store of the build whose dist/ is at `dist` (a URL; default this checkout's). */
async function redisTeamStore(where, dist = DIST) {
  const { openRedisTeamStore } = await import(new URL('store/redis/index.js', dist).href);
  return openRedisTeamStore({ kind: 'redis', url: where, hostRoot: '/nonexistent' });
}

/** The team store of `kind` at `where` (a root directory, or a Redis URL). */
async function teamStore(kind, where) {
  if (kind === 'redis') return redisTeamStore(where);
  return (await openStores({ kind: 'fs', root: where })).team;
}

/** Creates team t (lead + a, b, c, d) on the backend. */
export async function setUp(kind, where) {
  if (kind === 'fs') return makeTeam(where, ['a', 'b', 'c', 'd']);
  const store = await teamStore(kind, where);
  await store.createTeam({ name: 't', createdAt: Date.now(), leadAgentId: LEAD.agentId, members: [LEAD] });
  for (const m of ['a', 'b', 'c', 'd']) await store.addMember('t', { agentId: `${m}@t`, name: m });
  await store.close();
}

/**
 * Something that appends one entry to team-lead's inbox of team t: `redis` (the store of this
 * build, or of the build at `dist`: an A/B against another checkout), `fs`, `floor` or `trivial`
 * (see the module comment).
 */
export async function openAppender(kind, where, dist) {
  if (kind === 'floor') return floorAppender(where);
  if (kind === 'trivial') {
    const { createClient } = await import('redis');
    const client = createClient({ url: where });
    await client.connect();
    const sha = await client.scriptLoad("return redis.call('INCR', KEYS[1])");
    return { append: () => client.evalSha(sha, { keys: ['bench:floor'] }), close: () => client.close() };
  }
  const team = kind === 'redis' && dist ? await redisTeamStore(where, dist) : await teamStore(kind, where);
  return { append: (entry) => team.appendMessages('t', [{ to: 'team-lead', entry }]), close: () => team.close() };
}

/**
 * node-redis running the store's append-messages script for one message per call, with the keys and
 * arguments the store sends for it (src/store/redis/inboxes.ts `appendArgs`: its envelope, a key of
 * its own for the retry, the entry split around its timestamp). The reply is left as node-redis decodes it.
 */
async function floorAppender(where) {
  const { createClient } = await import('redis');
  const { script } = await import(new URL('store/redis/scripts.js', DIST).href);
  const { appendArgs } = await import(new URL('store/redis/inboxes.js', DIST).href);
  const { teamBase } = await import(new URL('store/redis/keys.js', DIST).href);
  const client = createClient({ url: where });
  await client.connect();
  const { source } = script('append-messages');
  const sha = await client.scriptLoad(source);
  const keys = [teamBase('t')];
  return {
    append: async (entry) => {
      const reply = await client.evalSha(sha, { keys, arguments: appendArgs('t', [{ to: 'team-lead', entry }]) });
      if (!Array.isArray(reply) || reply[0] !== 'ok') throw new Error(`append-messages refused: ${JSON.stringify(reply)}`);
    },
    close: () => client.close(),
  };
}

/** Something that creates a task and lets claimants race for it. */
export async function openClaims(kind, where) {
  const team = await teamStore(kind, where);
  return {
    create: async () => (await team.createTask('t', { subject: 'race', description: '' })).value.task.id,
    claim: (claimant, id) => team.claimTask('t', { claimant, id }),
    close: () => team.close(),
  };
}
