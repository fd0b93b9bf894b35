/**
 * Names a team's config holds that the filesystem layout cannot serve (issue 9 item 6): a member
 * name too long to be an inbox file name ({@link MAX_NAME_BYTES}), and members whose names
 * sanitise to the same inbox file (`café`/`cafè` → `caf-.json`, Claude Code's rule), who would
 * silently share one inbox. Found by `scanHealth`; doctor reports them (nothing to repair
 * automatically: renaming a member is the user's call).
 */
import { join } from 'node:path';
import type { StoreIssue } from '../health.js';
import { MAX_NAME_BYTES, pathPart } from './names.js';
import type { TeamConfig } from '../../protocol/config.js';
import type { InboxlessMember } from '../team-store.js';
import type { FsContext } from './context.js';
import { listTeams, readConfig } from './teams.js';

/** Roster members the layout cannot give an inbox of their own (TeamStore.inboxlessMembers). */
export function inboxlessMembersOf(config: TeamConfig): InboxlessMember[] {
  const out: InboxlessMember[] = [];
  const owner = new Map<string, string>();
  for (const m of config.members) {
    const part = pathPart(m.name);
    if (Buffer.byteLength(part, 'utf8') > MAX_NAME_BYTES) out.push({ member: m.name, code: 'NAME_TOO_LONG' });
    else if (owner.has(part)) out.push({ member: m.name, code: 'INBOX_SHARED', with: owner.get(part) });
    else owner.set(part, m.name);
  }
  return out;
}

/** The name issues of every team, in team order. */
export async function nameIssues(ctx: FsContext): Promise<StoreIssue[]> {
  const issues: StoreIssue[] = [];
  for (const { name: team } of await listTeams(ctx)) {
    const config = await readConfig(ctx, team).catch(() => undefined);
    if (!config) continue;
    const teamDir = join(ctx.layout.teamsDir, pathPart(team));
    const byFile = new Map<string, string[]>();
    for (const m of config.members) {
      const part = pathPart(m.name);
      const bytes = Buffer.byteLength(part, 'utf8');
      if (bytes > MAX_NAME_BYTES) {
        issues.push({ kind: 'name-too-long', location: join(teamDir, 'config.json'), team, member: m.name, bytes, limit: MAX_NAME_BYTES });
        continue;
      }
      byFile.set(part, [...(byFile.get(part) ?? []), m.name]);
    }
    for (const [part, members] of byFile) {
      if (members.length > 1) issues.push({ kind: 'inbox-collision', location: join(teamDir, 'inboxes', `${part}.json`), team, members });
    }
  }
  return issues;
}
