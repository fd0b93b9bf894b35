/**
 * The roster on Redis. Adding and updating a member are compare-and-set: the member document is
 * built or patched here from the roster as read, with the domain's rules (palette color by
 * position, the member patch, earlier shutdown requests), and the script writes it only if the roster (or the member) is still at the
 * version read. The script itself refuses a duplicate name (case-insensitively) or agentId.
 * The member record (`options.record`) is written by the same script, and removed by the one that
 * removes the member. Removing a member is one script that also unassigns its tasks.
 */
import { MailroomError } from '../../errors.js';
import type { Member } from '../../protocol/config.js';
import { MemberRecordSchema, type MemberRecord } from '../../protocol/member-record.js';
import { isEarlierShutdownRequest } from '../../domain/entries.js';
import { applyMemberPatch, memberRecordOf, nextColor, withColor } from '../../domain/roster.js';
import type { AddMemberOptions, MemberPatch, OpContext, RemovedMember, Transition } from '../team-store.js';
import { assembleEntry, assembleTask } from './codec.js';
import { envOf, runOnce, runTeamScript, untilSet, type RedisContext } from './context.js';
import { readInboxRows } from './inboxes.js';
import { configOf, readTeam } from './teams.js';
import { refusalError } from './reply.js';

/** Adds a member. @throws TEAM_NOT_FOUND, MEMBER_EXISTS */
export async function addMember(rc: RedisContext, team: string, member: Member, options: AddMemberOptions = {}): Promise<Transition<Member>> {
  return untilSet(`addMember ${member.name}`, async () => {
    const snapshot = await readTeam(rc, team);
    const built = options.assignColor && member.color === undefined ? withColor(member, nextColor(configOf(snapshot))) : member;
    let inboxSeq = '';
    let retire: string[] = [];
    if (options.retireEarlierShutdownRequests && built.joinedAt !== undefined) {
      const inbox = await readInboxRows(rc, team, member.name, 'live');
      inboxSeq = inbox.seq;
      retire = inbox.rows.filter((r) => isEarlierShutdownRequest(assembleEntry(r.doc, r.unread), built.joinedAt!)).map((r) => r.seq);
    }
    const record = options.record ? JSON.stringify(memberRecordOf(team, built, options.record)) : '';
    const args = [envOf(team, options), built.name, built.name.toLowerCase(), built.agentId, JSON.stringify(built), snapshot.rosterVer, inboxSeq, record, String(retire.length), ...retire];
    const out = await runTeamScript(rc, 'add-member', team, args, { who: built.name });
    return out === 'retry' ? out : { value: built, events: out.events };
  });
}

/** Changes a member's keys in place. @throws TEAM_NOT_FOUND, MEMBER_NOT_FOUND, NOT_SUPPORTED (renaming) */
export async function updateMember(rc: RedisContext, team: string, name: string, patch: MemberPatch, ctx?: OpContext): Promise<Transition<Member>> {
  if (patch.name !== undefined && patch.name !== name) {
    throw new MailroomError('NOT_SUPPORTED', `Renaming member "${name}" is not supported: remove it and add the new name.`, { details: { team, name } });
  }
  return untilSet(`updateMember ${name}`, async () => {
    const roster = (await readTeam(rc, team)).roster;
    const row = roster.find((r) => r.name === name);
    if (!row) throw refusalError({ code: 'MEMBER_NOT_FOUND', details: [name] }, { team, location: rc.location, members: roster.map((r) => r.name) });
    const member = JSON.parse(row.doc) as Member;
    const changed = applyMemberPatch(member, patch);
    if (changed.length === 0) return { value: member, events: [] };
    const out = await runTeamScript(rc, 'update-member', team, [envOf(team, ctx), name, row.ver, JSON.stringify(member), member.agentId, changed.join(',')], { who: name });
    return out === 'retry' ? out : { value: member, events: out.events };
  });
}

/** mailroom's member records of the team, in member-name order (a record that does not parse is skipped). */
export async function readMemberRecords(rc: RedisContext, team: string): Promise<MemberRecord[]> {
  const docs = (await runOnce(rc, 'read-member-records', team, [])).value as string[];
  return docs.flatMap((doc) => {
    const parsed = MemberRecordSchema.safeParse(parseOr(doc));
    return parsed.success ? [parsed.data] : [];
  });
}

function parseOr(doc: string): unknown {
  try {
    return JSON.parse(doc) as unknown;
  } catch {
    return undefined;
  }
}

/** Removes a member (and its member record) and unassigns its open tasks in one step. */
export async function removeMember(rc: RedisContext, team: string, nameOrAgentId: string, ctx?: OpContext): Promise<Transition<RemovedMember | undefined>> {
  const out = await runOnce(rc, 'remove-member', team, [envOf(team, ctx), nameOrAgentId]);
  if (out.value === null) return { value: undefined, events: out.events };
  const [doc, tasks] = out.value as [string, unknown[][]];
  return { value: { member: JSON.parse(doc) as Member, unassigned: tasks.map(assembleTask) }, events: out.events };
}
