/**
 * `mailroom team resume` (issue 10 item 3): restarts the process-backend members that were running
 * when the machine or their runtime died. A `mailroom agent` removes its pid record whenever it
 * returns, so a record left behind names one that died (or still runs); its member, if still in the
 * roster and not run by anything else, is started again as a detached `mailroom agent` with the
 * same name, and the roster's colour, model, prompt and cwd (the record's `--model`, if it had one).
 * Its unread mail is delivered and its own assigned task found first, as at any start.
 */
import type { TeamOptions } from '../../core/context.js';
import { mayBeRunning } from '../../core/processes/process-identity.js';
import { isAlive, presenceOf } from '../../domain/presence.js';
import { startProcessTeammate } from '../process/start.js';
import { startTmuxTeammate } from '../tmux/spawn.js';

/** What {@link resumeTeam} did for one recorded member. */
export interface ResumedMember {
  name: string;
  /**
   * `restarted` (a new process, `pid`); `running` (its process or another runtime still runs it);
   * `left` (no longer in the roster: its stale record is removed); `failed` (could not start: `error`).
   */
  outcome: 'restarted' | 'running' | 'left' | 'failed';
  pid?: number;
  error?: string;
}

/** Restarts every recorded process-backend member that is not running. Never throws for one member. @throws TEAM_NOT_FOUND */
export async function resumeTeam(options: TeamOptions): Promise<ResumedMember[]> {
  const stores = options.root;
  const config = await stores.team.readConfig(options.team);
  const claims = await stores.team.readClaims(options.team);
  const out: ResumedMember[] = [];
  for (const record of await stores.host.listProcessRecords(options.team)) {
    const name = record.agent;
    if (!config.members.some((m) => m.name === name)) {
      await stores.host.deleteProcessRecord(options.team, name).catch(() => undefined);
      out.push({ name, outcome: 'left' });
      continue;
    }
    // A claim still live but held by the recorded (dead) process is that process's: its ttl has not run out yet.
    const p = presenceOf(name, claims, Date.now());
    const otherRuntime = isAlive(p) && !(p.host === stores.host.hostId && p.pid === record.pid);
    if ((await mayBeRunning(stores.host, record)) || otherRuntime) {
      out.push({ name, outcome: 'running', pid: record.pid });
      continue;
    }
    try {
      // A tmux member comes back in a new pane of its own (recorded anew), any other as a detached process.
      const tmuxMember = config.members.find((m) => m.name === name)?.backendType === 'tmux';
      const started = tmuxMember ? await startTmuxTeammate({ root: stores, team: options.team, name }) : await startProcessTeammate({ root: stores, team: options.team, name, ...(record.model ? { model: record.model } : {}) });
      out.push({ name, outcome: 'restarted', pid: started.pid });
    } catch (err) {
      out.push({ name, outcome: 'failed', error: err instanceof Error ? err.message : String(err) });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
