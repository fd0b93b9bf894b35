// The two backends as bench/80-redis-store drives them, both through the TeamStore interface:
// team t with members a..d, appends to team-lead's inbox, and claims.
import { openStores } from '../../dist/store/open.js';
import { openRedisTeamStore } from '../../dist/store/redis/index.js';
import { makeTeam } from './setup.mjs';

const LEAD = { agentId: 'team-lead@t', name: 'team-lead' };

/** The team store of `kind` at `where` (a root directory, or a Redis URL). */
async function teamStore(kind, where) {
  if (kind === 'redis') return openRedisTeamStore({ kind: 'redis', url: where, hostRoot: '/nonexistent' });
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

/** Something that appends one entry to team-lead's inbox (`floor`: node-redis, one trivial EVALSHA per call instead: the one-request-per-await floor). */
export async function openAppender(kind, where) {
  if (kind === 'floor') {
    const { createClient } = await import('redis');
    const client = createClient({ url: where });
    await client.connect();
    const sha = await client.scriptLoad("return redis.call('INCR', KEYS[1])");
    return { append: () => client.evalSha(sha, { keys: ['bench:floor'] }), close: () => client.close() };
  }
  const team = await teamStore(kind, where);
  return { append: (entry) => team.appendMessages('t', [{ to: 'team-lead', entry }]), close: () => team.close() };
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
