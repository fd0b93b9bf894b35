// The two backends as bench/80-redis-store drives them: team t with members a..d on either store,
// appends to team-lead's inbox, and claims. The filesystem side uses the TeamStore of this build
// when it has one (openStores), else the Store API it replaces (FsStore, core claimTask).
import { openRedisTeamStore } from '../../dist/store/redis/index.js';
import { makeTeam } from './setup.mjs';

const LEAD = { agentId: 'team-lead@t', name: 'team-lead' };

async function fsTeamStore(root) {
  try {
    const { openStores } = await import('../../dist/store/open.js');
    return (await openStores({ kind: 'fs', root })).team;
  } catch {
    return undefined;
  }
}

/** Creates team t (lead + a, b, c, d) on the backend. */
export async function setUp(kind, where) {
  if (kind === 'fs') return makeTeam(where, ['a', 'b', 'c', 'd']);
  const store = await openRedisTeamStore({ kind: 'redis', url: where, hostRoot: '/nonexistent' });
  await store.createTeam({ name: 't', createdAt: Date.now(), leadAgentId: LEAD.agentId, members: [LEAD] });
  for (const m of ['a', 'b', 'c', 'd']) await store.addMember('t', { agentId: `${m}@t`, name: m });
  await store.close();
}

/** Something that appends one entry to team-lead's inbox. */
export async function openAppender(kind, where) {
  const team = kind === 'redis' ? await openRedisTeamStore({ kind: 'redis', url: where, hostRoot: '/nonexistent' }) : await fsTeamStore(where);
  if (team) return { append: (entry) => team.appendMessages('t', [{ to: 'team-lead', entry }]), close: () => team.close() };
  const { FsStore } = await import('../../dist/store/fs-store.js');
  const store = new FsStore(where);
  return { append: (entry) => store.appendToInbox('t', 'team-lead', [entry]), close: async () => undefined };
}

/** Something that creates a task and lets claimants race for it. */
export async function openClaims(kind, where) {
  const team = kind === 'redis' ? await openRedisTeamStore({ kind: 'redis', url: where, hostRoot: '/nonexistent' }) : await fsTeamStore(where);
  if (team) {
    return {
      create: async () => (await team.createTask('t', { subject: 'race', description: '' })).value.task.id,
      claim: (claimant, id) => team.claimTask('t', { claimant, id }),
      close: () => team.close(),
    };
  }
  const { addTask } = await import('../../dist/core/tasks.js');
  const { claimTask } = await import('../../dist/core/task-claim.js');
  return {
    create: async () => (await addTask({ root: where, team: 't', subject: 'race' })).id,
    claim: (claimant, id) => claimTask({ root: where, team: 't', as: claimant, id }),
    close: async () => undefined,
  };
}
