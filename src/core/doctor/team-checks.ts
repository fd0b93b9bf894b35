/**
 * Team-level doctor checks over ordinary store reads: dependencies that are one-sided, point
 * nowhere or close a cycle, open tasks owned by people no longer in the team, inboxes of non-members. Every repair
 * is one store transition.
 *
 * Repairs never change which tasks are blocked: `blockedBy` is what claims and status changes
 * check (reference §5), so a one-sided `blockedBy` gains its `blocks` mirror, and a one-sided
 * `blocks` is dropped. An open task of a departed owner becomes unowned `pending`, as Claude
 * Code's lead does when a teammate shuts down (reference §7.4) — only if it is still as it was seen.
 */
import { indexTasks, openCycles } from '../../domain/task-board.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { Task } from '../../protocol/task.js';
import type { StoreRepair } from '../../store/health.js';
import type { TeamStore } from '../../store/team-store.js';
import type { Check } from './findings.js';
import { plural } from '../text/plural.js';

/** Every team-level check for one team. */
export async function checkTeam(store: TeamStore, team: string, config: TeamConfig): Promise<Check[]> {
  const tasks = await store.listTasks(team);
  return [...dependencyChecks(store, team, tasks), ...cycleChecks(team, tasks), ...ownerChecks(store, team, config, tasks), ...(await inboxChecks(store, team, config))];
}

/**
 * Dependency cycles among open tasks, written into the files by other means (Claude Code checks
 * none): none of their tasks can ever start. Reported with the command that breaks one; no
 * repair — which link is wrong is a person's call.
 */
function cycleChecks(team: string, tasks: readonly Task[]): Check[] {
  return openCycles(tasks).map((cycle) => {
    const shown = cycle.map((id) => `#${id}`).join(' → ');
    const message = `Tasks ${shown} form a dependency cycle (each blocked by the next), so none of them can start. Remove one link, e.g. \`mailroom --team ${team} task update ${cycle[0]!} --remove-blocked-by ${cycle[1]!}\`.`;
    return { finding: { kind: 'dependency-cycle', severity: 'problem', message, team } };
  });
}

function dependencyChecks(store: TeamStore, team: string, tasks: readonly Task[]): Check[] {
  const byId = indexTasks(tasks);
  const checks: Check[] = [];
  for (const t of tasks) {
    for (const field of ['blocks', 'blockedBy'] as const) {
      const mirror = field === 'blocks' ? 'blockedBy' : 'blocks';
      for (const id of t[field]) {
        const edge = field === 'blocks' ? { blocked: id, blocker: t.id } : { blocked: t.id, blocker: id };
        const other = byId.get(id);
        if (!other) {
          const message = `Task #${t.id} lists #${id} in ${field}, but there is no task #${id}.`;
          checks.push(teamCheck(team, 'dangling-dependency', message, () => done(store.unlinkTasks(team, [edge]), `removed #${id} from #${t.id}'s ${field}`)));
        } else if (!other[mirror].includes(t.id)) {
          const message = `Task #${t.id} lists #${id} in ${field}, but #${id} does not list #${t.id} in ${mirror}.`;
          const fix =
            field === 'blockedBy'
              ? () => done(store.linkTasks(team, [edge]), `added #${t.id} to #${id}'s blocks`)
              : () => done(store.unlinkTasks(team, [edge]), `removed #${id} from #${t.id}'s blocks (blockedBy decides what is blocked)`);
          checks.push(teamCheck(team, 'asymmetric-dependency', message, fix));
        }
      }
    }
  }
  return checks;
}

function ownerChecks(store: TeamStore, team: string, config: TeamConfig, tasks: readonly Task[]): Check[] {
  const known = new Set(config.members.flatMap((m) => [m.name, m.agentId]));
  return tasks
    .filter((t) => t.owner && !known.has(t.owner) && t.status !== 'completed')
    .map((t) => {
      const message = `Task #${t.id} (${t.status}) is owned by "${t.owner}", who is no longer a member of team "${team}".`;
      return teamCheck(team, 'orphan-owner', message, async () => {
        try {
          await store.patchTask(team, t.id, { owner: null, status: 'pending', expect: { owner: t.owner ?? null, status: t.status } });
          return { done: true, note: `#${t.id} is now unowned and pending`, bytesFreed: 0 };
        } catch (err) {
          if ((err as { code?: string }).code !== 'TASK_CONFLICT') throw err;
          return { done: true, note: `#${t.id} changed meanwhile: left as it is now`, bytesFreed: 0 };
        }
      });
    });
}

async function inboxChecks(store: TeamStore, team: string, config: TeamConfig): Promise<Check[]> {
  const checks: Check[] = [];
  for (const inbox of await store.listInboxes(team)) {
    if (inbox.member) continue;
    const agent = inbox.name;
    const entries = await store.readInbox(team, agent).catch(() => undefined);
    const unread = entries?.filter((e) => e.read !== true).length;
    // All read: the history Claude Code keeps after a member leaves (2.1.109 snapshot 5), not a problem.
    const history = entries !== undefined && unread === 0;
    const contents = !entries ? '' : history ? ` (${plural(entries.length, 'message')}, all read: kept as history)` : ` (${plural(entries.length, 'message')}, ${unread} unread: never delivered)`;
    const message = `Inbox "${agent}" belongs to no member of team "${config.name}"${contents}.`;
    const check = teamCheck(team, 'orphan-inbox', message, async () => {
      const to = (await store.setInboxAside(team, agent)).value;
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

async function done(transition: Promise<unknown>, note: string): Promise<StoreRepair> {
  await transition;
  return { done: true, note, bytesFreed: 0 };
}
