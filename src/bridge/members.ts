/**
 * The roster, both ways (docs/bridge.md "Members"): a member that joins on one side is added on the
 * other; a member that leaves a side after both had it (Claude Code removes a teammate on
 * `shutdown_approved`) leaves the other. A member from the shared store appears in the local config
 * as a member Claude Code runs no part of (`tmuxPaneId: ""`, no `backendType`: src/protocol/backend.ts),
 * so SendMessage to it writes its local inbox, and with `isActive` as its presence says (reader
 * claims, src/domain/presence.ts; a member holding no claim, e.g. a Claude Code pane teammate on
 * another machine, keeps the `isActive` its own machine's bridge published). The local team's
 * removal (Claude Code's clean-up at exit) is never a member leaving: nothing is removed remotely.
 */
import { isAlive, presenceOf } from '../domain/presence.js';
import { MailroomError } from '../errors.js';
import type { Member, TeamConfig } from '../protocol/config.js';
import { rosterBackend } from '../protocol/backend.js';
import type { ReaderClaim, TeamStore } from '../store/team-store.js';
import type { MemberOrigin } from './state.js';

/** The two rosters to reconcile. */
export interface RosterSides {
  team: string;
  local: TeamStore;
  remote: TeamStore;
  localConfig: TeamConfig;
  remoteConfig: TeamConfig;
  /** The remote team's reader claims (presence). */
  claims: readonly ReaderClaim[];
  now: number;
}

/** What a roster sync did. */
export interface RosterSyncResult {
  /** Members on both sides afterwards, by name. */
  members: Record<string, MemberOrigin>;
  changed: string[];
}

const CTX = { actor: 'mailroom-bridge' };

/** Reconciles the rosters (see the module comment); `known` are the members both sides had before. */
export async function syncRoster(sides: RosterSides, known: Readonly<Record<string, MemberOrigin>>): Promise<RosterSyncResult> {
  const { team, local, remote } = sides;
  const here = new Map(sides.localConfig.members.map((m) => [m.name, m]));
  const there = new Map(sides.remoteConfig.members.map((m) => [m.name, m]));
  const members: Record<string, MemberOrigin> = {};
  const changed: string[] = [];
  for (const name of new Set([...here.keys(), ...there.keys()])) {
    const l = here.get(name);
    const r = there.get(name);
    const origin = known[name];
    if (l && r) {
      members[name] = origin ?? 'local';
      if (await syncActive(sides, members[name], l, r)) changed.push(name);
    } else if (l) {
      if (origin !== undefined) await local.removeMember(team, name, CTX);
      else if (await tolerateExists(() => remote.addMember(team, structuredClone(l), CTX))) members[name] = 'local';
      changed.push(name);
    } else if (r) {
      if (origin !== undefined) await remote.removeMember(team, name, CTX);
      else if (await tolerateExists(() => local.addMember(team, localCopy(r, desiredActive(sides, r)), CTX))) members[name] = 'remote';
      changed.push(name);
    }
  }
  return { members, changed };
}

/** A remote member as the local config shows it (Claude Code runs no part of it). */
export function localCopy(member: Member, isActive: boolean | undefined): Member {
  const copy: Member = { ...structuredClone(member), ...rosterBackend('process') };
  delete copy.backendType;
  if (isActive !== undefined) copy.isActive = isActive;
  return copy;
}

/**
 * `isActive` for a remote member: its presence, or (no claim: never started, or stopped and gave its
 * claim up) the value its machine published, and `false` when none did — nothing reads its inbox.
 */
function desiredActive(sides: RosterSides, member: Member): boolean {
  const p = presenceOf(member.name, sides.claims, sides.now);
  return p.state === 'stopped' ? (member.isActive ?? false) : isAlive(p);
}

/** Carries `isActive` from the member's own side to the other. @returns whether anything changed */
async function syncActive(sides: RosterSides, origin: MemberOrigin, l: Member, r: Member): Promise<boolean> {
  if (origin === 'local') {
    if (l.isActive === undefined || l.isActive === r.isActive) return false;
    await sides.remote.updateMember(sides.team, l.name, { isActive: l.isActive }, CTX);
    return true;
  }
  const want = desiredActive(sides, r);
  if (want === undefined || want === l.isActive) return false;
  await sides.local.updateMember(sides.team, l.name, { isActive: want }, CTX);
  return true;
}

/** Runs an add; a member of the name that appeared meanwhile (MEMBER_EXISTS) is no failure. */
async function tolerateExists(add: () => Promise<unknown>): Promise<boolean> {
  try {
    await add();
    return true;
  } catch (err) {
    if (err instanceof MailroomError && err.code === 'MEMBER_EXISTS') return false;
    throw err;
  }
}

/** The config to create a side's team from the other's: its lead only (the others are added as members). */
export function teamSeed(config: TeamConfig, remoteOrigin: boolean): TeamConfig {
  const seed = structuredClone(config);
  seed.members = seed.members.filter((m) => m.agentId === seed.leadAgentId).map((m) => (remoteOrigin ? localCopy(m, m.isActive) : m));
  return seed;
}
