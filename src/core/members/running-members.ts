/**
 * Which members of a team are running right now, by the two signs mailroom has: a live reader
 * claim (any runtime that reads the member's inbox — in-process teammate, `mailroom agent`,
 * `mailroom mcp`; {@link presenceOf}) and a process record whose process is still alive (a
 * `mailroom agent` that has not claimed yet, or whose claim lapsed while it is paused). Used by
 * `team delete` to refuse deleting a team under its running members (issue 9 item 3).
 */
import { isAlive, presenceOf } from '../../domain/presence.js';
import type { TeamOptions } from '../context.js';
import { mayBeRunning } from '../processes/process-identity.js';

/** One running member and how it was found. */
export interface RunningMember {
  name: string;
  /** What holds its reader claim (absent when only a live process record says it runs). */
  kind?: 'agent' | 'mcp' | 'in-process' | undefined;
  /** The runtime's pid (the claim's holder, else the process record's). */
  pid?: number | undefined;
  /** Machine id of the claim's holder. */
  host?: string | undefined;
  /** `claim`: a live reader claim; `process`: only a live process record. */
  by: 'claim' | 'process';
}

/**
 * Members (in roster order) with a live reader claim (its holder on this machine still exists) or a
 * live recorded process. @throws TEAM_NOT_FOUND
 */
export async function runningMembers(options: TeamOptions): Promise<RunningMember[]> {
  const stores = options.root;
  const config = await stores.team.readConfig(options.team);
  const claims = await stores.team.readClaims(options.team);
  const records = new Map((await stores.host.listProcessRecords(options.team).catch(() => [])).map((r) => [r.agent, r]));
  const now = Date.now();
  const out: RunningMember[] = [];
  for (const m of config.members) {
    const p = presenceOf(m.name, claims, now);
    // A claim of this machine whose process is gone (SIGKILLed before its ttl ran out) runs nothing.
    const gone = isAlive(p) && p.host === stores.host.hostId && p.pid !== undefined && (await stores.host.probeProcess(p.pid)).kind === 'exited';
    if (isAlive(p) && !gone) {
      out.push({ name: m.name, kind: p.kind, pid: p.pid, host: p.host, by: 'claim' });
      continue;
    }
    const record = records.get(m.name);
    if (record && (await mayBeRunning(stores.host, record))) out.push({ name: m.name, pid: record.pid, by: 'process' });
  }
  return out;
}

/** `alice (agent, pid 123)`, `bob (process 456)`: for messages. */
export function describeRunning(r: RunningMember): string {
  return r.by === 'claim' ? `${r.name} (${r.kind ?? 'runtime'}${r.pid !== undefined ? `, pid ${r.pid}` : ''})` : `${r.name} (process ${r.pid})`;
}
