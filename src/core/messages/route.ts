/**
 * Routing by capability (issue 11 item 2): `team send --to-capability X` and `team ask
 * --to-capability X` go to the least-loaded live member that declares X. The rule (docs/cli.md
 * "Routing by capability"): among members other than the sender whose member record declares the
 * capability and whose presence is alive (src/domain/presence.ts: working or idle), take the one
 * that is idle before one that is working, then the one with the fewest unread messages, then the
 * fewest tasks in progress, then the first by name.
 */
import { MailroomError } from '../../errors.js';
import { recordIsFor } from '../../protocol/member-record.js';
import { capabilitiesOf, parseCapabilities } from '../../domain/capabilities.js';
import { isAlive, presenceOf, type PresenceState } from '../../domain/presence.js';
import { leadName } from '../../domain/roster.js';
import { nowOf, teamOf, type TeamOptions } from '../context.js';
import { configOf, type KnownConfig } from '../teams/known-config.js';

/** One member that declares the capability, with what the rule looked at. */
export interface RouteCandidate {
  name: string;
  presence: PresenceState;
  /** Unread messages in its inbox. */
  unread: number;
  /** Tasks it owns that are in progress. */
  inProgress: number;
}

/** What {@link routeByCapability} chose, and among whom. */
export interface Route {
  /** The member chosen. */
  to: string;
  capability: string;
  /** Every member declaring the capability (live or not), best first for the live ones. */
  candidates: RouteCandidate[];
}

/**
 * Picks the member a message for `capability` goes to (see the module comment).
 * @throws INVALID_ARGUMENT (not a capability name), NO_CAPABLE_MEMBER (no live member other than
 * the sender declares it; `details.candidates` lists those that do, with their presence)
 */
export async function routeByCapability(options: TeamOptions & KnownConfig & { capability: string; from?: string | undefined }): Promise<Route> {
  const [capability] = parseCapabilities(options.capability, '--to-capability');
  if (capability === undefined || options.capability.includes(',')) throw new MailroomError('INVALID_ARGUMENT', '--to-capability takes one capability name (e.g. review).');
  const store = teamOf(options);
  const config = await configOf(options);
  const from = options.from ?? leadName(config);
  const [records, claims, tasks] = await Promise.all([store.readMemberRecords(options.team), store.readClaims(options.team), store.listTasks(options.team)]);
  const now = nowOf(options);
  const candidates: RouteCandidate[] = [];
  for (const member of config.members) {
    if (member.name === from) continue;
    const record = records.find((r) => r.name === member.name && recordIsFor(r, member));
    if (!capabilitiesOf(record).includes(capability)) continue;
    const unread = (await store.readInbox(options.team, member.name)).filter((e) => e.read !== true).length;
    const inProgress = tasks.filter((t) => t.owner === member.name && t.status === 'in_progress').length;
    candidates.push({ name: member.name, presence: presenceOf(member.name, claims, now).state, unread, inProgress });
  }
  candidates.sort(byLoad);
  const chosen = candidates.find((c) => isAlive({ state: c.presence }));
  if (!chosen) {
    const who = candidates.length > 0 ? `${candidates.map((c) => `${c.name} (${c.presence})`).join(', ')} declare it, none running` : 'no member declares it';
    throw new MailroomError('NO_CAPABLE_MEMBER', `No live member can take "${capability}": ${who}. Start one (\`mailroom agent <name>\`) or add one (\`mailroom team spawn <name> --capability ${capability} --backend process\`).`, {
      details: { team: options.team, capability, candidates },
    });
  }
  return { to: chosen.name, capability, candidates };
}

const STATE_ORDER: Readonly<Record<PresenceState, number>> = { idle: 0, working: 1, stopped: 2, dead: 3 };

function byLoad(a: RouteCandidate, b: RouteCandidate): number {
  return STATE_ORDER[a.presence] - STATE_ORDER[b.presence] || a.unread - b.unread || a.inProgress - b.inProgress || a.name.localeCompare(b.name);
}
