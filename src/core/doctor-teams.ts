/**
 * Team-level doctor checks over ordinary store reads: dependencies that are one-sided or point
 * nowhere, open tasks owned by people no longer in the team, inboxes of non-members.
 *
 * Repairs never change which tasks are blocked: `blockedBy` is what claims and status changes
 * check (reference §5), so a one-sided `blockedBy` gains its `blocks` mirror, and a one-sided
 * `blocks` is dropped. An open task of a departed owner becomes unowned `pending`, as Claude
 * Code's lead does when a teammate shuts down (reference §7.4).
 */
import type { TeamConfig } from '../protocol/config.js';
import type { Task } from '../protocol/task.js';
import type { StoreRepair } from '../store/health.js';
import { pathPart } from '../store/names.js';
import type { Store } from '../store/store.js';
import type { Check } from './doctor-types.js';
import { addUnique, indexTasks } from './task-rules.js';

/** Every team-level check for one team. */
export async function checkTeam(store: Store, team: string, config: TeamConfig): Promise<Check[]> {
  const tasks = await store.listTasks(team);
  return [...dependencyChecks(store, team, tasks), ...ownerChecks(store, team, config, tasks), ...(await inboxChecks(store, team, config))];
}

function dependencyChecks(store: Store, team: string, tasks: readonly Task[]): Check[] {
  const byId = indexTasks(tasks);
  const checks: Check[] = [];
  for (const t of tasks) {
    for (const field of ['blocks', 'blockedBy'] as const) {
      const mirror = field === 'blocks' ? 'blockedBy' : 'blocks';
      for (const id of t[field]) {
        const other = byId.get(id);
        if (!other) {
          const message = `Task #${t.id} lists #${id} in ${field}, but there is no task #${id}.`;
          checks.push(teamCheck(team, 'dangling-dependency', message, () => edit(store, team, t.id, (x) => remove(x[field], id), `removed #${id} from #${t.id}'s ${field}`)));
        } else if (!other[mirror].includes(t.id)) {
          const message = `Task #${t.id} lists #${id} in ${field}, but #${id} does not list #${t.id} in ${mirror}.`;
          const fix =
            field === 'blockedBy'
              ? () => edit(store, team, id, (x) => addUnique(x.blocks, t.id), `added #${t.id} to #${id}'s blocks`)
              : () => edit(store, team, t.id, (x) => remove(x.blocks, id), `removed #${id} from #${t.id}'s blocks (blockedBy decides what is blocked)`);
          checks.push(teamCheck(team, 'asymmetric-dependency', message, fix));
        }
      }
    }
  }
  return checks;
}

function ownerChecks(store: Store, team: string, config: TeamConfig, tasks: readonly Task[]): Check[] {
  const known = new Set(config.members.flatMap((m) => [m.name, m.agentId]));
  return tasks
    .filter((t) => t.owner && !known.has(t.owner) && t.status !== 'completed')
    .map((t) => {
      const message = `Task #${t.id} (${t.status}) is owned by "${t.owner}", who is no longer a member of team "${team}".`;
      return teamCheck(team, 'orphan-owner', message, () =>
        edit(store, team, t.id, (x) => {
          if (x.owner === t.owner && x.status !== 'completed') {
            delete x.owner;
            x.status = 'pending';
          }
        }, `#${t.id} is now unowned and pending`),
      );
    });
}

async function inboxChecks(store: Store, team: string, config: TeamConfig): Promise<Check[]> {
  const members = new Set(config.members.map((m) => pathPart(m.name)));
  const checks: Check[] = [];
  for (const agent of await store.listInboxes(team)) {
    if (members.has(agent)) continue;
    const entries = await store.readInbox(team, agent).catch(() => undefined);
    const unread = entries?.filter((e) => e.read !== true).length;
    // All read: the history Claude Code keeps after a member leaves (2.1.109 snapshot 5), not a problem.
    const history = entries !== undefined && unread === 0;
    const contents = !entries ? '' : history ? ` (${entries.length} messages, all read: kept as history)` : ` (${entries.length} messages, ${unread} unread: never delivered)`;
    const message = `Inbox "${agent}" belongs to no member of team "${team}"${contents}.`;
    const check = teamCheck(team, 'orphan-inbox', message, async () => {
      const to = await store.moveInboxAside(team, agent);
      return { done: true, note: to ? `moved aside to ${to}` : 'already gone', bytesFreed: 0, ...(to ? { movedTo: to } : {}) };
    });
    if (history) check.finding.severity = 'info';
    checks.push(check);
  }
  return checks;
}

function teamCheck(team: string, kind: Check['finding']['kind'], message: string, fix: () => Promise<StoreRepair>): Check {
  return { finding: { kind, severity: 'problem', message, team }, fix };
}

/** Changes one task under its lock (inside the list lock, as dependency edits are). */
async function edit(store: Store, team: string, id: string, change: (t: Task) => void, note: string): Promise<StoreRepair> {
  await store.withTaskList(team, () => store.updateTask(team, id, change));
  return { done: true, note, bytesFreed: 0 };
}

function remove(list: string[], value: string): void {
  const i = list.indexOf(value);
  if (i >= 0) list.splice(i, 1);
}
