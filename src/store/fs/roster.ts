/**
 * Roster transitions on `config.json` (reference §2): add, update and remove a member, each under
 * the config lock with its journal line and its member record (member-records.ts) written right
 * after the config. Removing a member also unassigns its open tasks (task-list lock, after the
 * config lock is released).
 */
import { applyMemberPatch, assertFreeName, memberRecordOf, nextColor, removableIndex, requireMember, withColor } from '../../domain/roster.js';
import { memberEvent } from '../../domain/events.js';
import type { Member } from '../../protocol/config.js';
import { replacingRecord, retiredRecord } from '../../protocol/member-record.js';
import type { TeamEventRecord } from '../../protocol/events.js';
import type { AddMemberOptions, MemberPatch, OpContext, RemovedMember, Transition } from '../team-store.js';
import { stampOf, type FsContext } from './context.js';
import { retireEarlierShutdownRequests } from './inboxes.js';
import { journal } from './journal.js';
import { deleteMemberRecord, readMemberRecord, writeMemberRecord } from './member-records.js';
import { changeConfig } from './teams.js';
import { unassignTasks } from './tasks.js';

/** Adds `member` (a color from the palette when asked and unset). @throws TEAM_NOT_FOUND, MEMBER_EXISTS */
export async function addMember(ctx: FsContext, team: string, member: Member, options: AddMemberOptions = {}): Promise<Transition<Member>> {
  const events: TeamEventRecord[] = [];
  // A member record mailroom could not parse is never overwritten: refuse before anything is written.
  if (options.record) await readMemberRecord(ctx, team, member.name);
  const added = await changeConfig(
    ctx,
    team,
    (config) => {
      assertFreeName(config, member.name);
      const m = options.assignColor && member.color === undefined ? withColor(member, nextColor(config)) : member;
      config.members.push(m);
      return { result: m, write: true };
    },
    async (m) => {
      events.push(memberEvent(stampOf(team, options), 'joined', m.name, m.agentId));
      await journal(ctx, team, events);
      // Replacing an earlier member's kept record carries its revoked key (protocol/member-record.ts replacingRecord), under the same lock.
      if (options.record) await writeMemberRecord(ctx, replacingRecord(memberRecordOf(team, m, options.record), await readMemberRecord(ctx, team, m.name).catch(() => undefined)));
    },
  );
  if (options.retireEarlierShutdownRequests) events.push(...(await retireEarlierShutdownRequests(ctx, team, added.name, added.joinedAt ?? options.now ?? Date.now(), options)));
  return { value: added, events };
}

/** Changes a member's keys in place; nothing is written when nothing changes. @throws MEMBER_NOT_FOUND */
export async function updateMember(ctx: FsContext, team: string, name: string, patch: MemberPatch, op?: OpContext): Promise<Transition<Member>> {
  let events: TeamEventRecord[] = [];
  const value = await changeConfig(
    ctx,
    team,
    (config) => {
      const member = requireMember(config, name);
      const changed = applyMemberPatch(member, patch);
      // Set, not pushed: a run that lost its lock runs again (changeConfig), and only the last run's event stands.
      events = changed.length > 0 ? [memberEvent(stampOf(team, op), 'updated', member.name, member.agentId, changed)] : [];
      return { result: member, write: changed.length > 0 };
    },
    () => journal(ctx, team, events),
  );
  return { value, events };
}

/** Removes a member (by name or agentId; never the lead) and unassigns its open tasks. */
export async function removeMember(ctx: FsContext, team: string, nameOrAgentId: string, op?: OpContext): Promise<Transition<RemovedMember | undefined>> {
  const events: TeamEventRecord[] = [];
  const removed = await changeConfig(
    ctx,
    team,
    (config) => {
      const i = removableIndex(config, nameOrAgentId);
      if (i < 0) return { result: undefined, write: false };
      return { result: config.members.splice(i, 1)[0], write: true };
    },
    async (m) => {
      if (!m) return;
      events.push(memberEvent(stampOf(team, op), 'left', m.name, m.agentId));
      await journal(ctx, team, events);
      // A signing member's identity is kept, revoked from now (the files store's clock is its machine's).
      const record = await readMemberRecord(ctx, team, m.name).catch(() => undefined);
      const retired = retiredRecord(record, m, Date.now());
      if (retired) await writeMemberRecord(ctx, retired);
      else if (record?.removedAt === undefined) await deleteMemberRecord(ctx, team, m.name);
      // else an earlier member's kept record (a Claude Code member of the name had none): its revocation stays.
    },
  );
  if (!removed) return { value: undefined, events };
  const unassigned = await unassignTasks(ctx, team, [removed.name, removed.agentId], op);
  events.push(...unassigned.events);
  return { value: { member: removed, unassigned: unassigned.value }, events };
}
