/**
 * A lead that cannot hear (docs/format.md §5 "A lead that cannot hear"): a Claude Code 2.1.332
 * session lead reads its inbox (every 1000 ms) only while it runs an in-process teammate; a member
 * another program adds does not count (2.1.332 README). A message to such a lead from a mailroom
 * member waits in its inbox — nothing is lost — until the lead runs a teammate again. No file can
 * change that, so mailroom says it, once, when it sends to such a lead.
 *
 * The heuristic, from config.json and mailroom's member records only:
 * - the lead is a 2.1.332 session lead (`leadProcess`, or pane `leader`: {@link hasSessionLead});
 * - no other member has Claude Code's in-process teammate shape (`backendType` and `tmuxPaneId`
 *   `in-process`) without a current mailroom member record (mailroom's own members never have that
 *   shape now; ones an earlier mailroom registered with it have no record and are taken for the
 *   lead's own — a missed warning, never a false one for them).
 * Limits: the roster cannot tell an in-process teammate that is still listed but no longer runs
 * (crashed, or between its shutdown approval and its removal) from a live one, nor whether the lead
 * process itself still runs; either way no warning is given.
 */
import { hasInProcessShape } from '../../protocol/backend.js';
import { hasSessionLead, type TeamConfig } from '../../protocol/config.js';
import { recordIsFor, type MemberRecord } from '../../protocol/member-record.js';
import { teamOf, type TeamOptions } from '../context.js';
import { leadName } from '../../domain/roster.js';
import { configOf, type KnownConfig } from '../teams/known-config.js';

/** Why the team's lead will not read a message now (see the module comment), or undefined. */
export function leadCannotHear(config: TeamConfig, records: ReadonlyMap<string, MemberRecord> = new Map()): string | undefined {
  if (!hasSessionLead(config)) return undefined;
  const runsOne = config.members.some((m) => {
    if (m.agentId === config.leadAgentId || !hasInProcessShape(m)) return false;
    const own = records.get(m.name);
    return !(own && recordIsFor(own, m));
  });
  if (runsOne) return undefined;
  const lead = leadName(config);
  return (
    `${lead} is a Claude Code 2.1.332 session lead with no in-process teammate: it reads its inbox only while it runs one, ` +
    `so this message waits in its inbox until then (nothing is lost). Have the lead spawn a teammate, or tell its user.`
  );
}

const warned = new Set<string>();

/**
 * {@link leadCannotHear} for a send to `to`, at most once per process and lead session: the
 * warning text the first time a message goes to such a lead, undefined after that and otherwise.
 * Reads the config and the member records; never throws (undefined when they cannot be read).
 */
export async function leadHearingWarning(options: TeamOptions & KnownConfig & { to: readonly string[] }): Promise<string | undefined> {
  const store = teamOf(options);
  try {
    const config = await configOf(options);
    if (!options.to.includes(leadName(config))) return undefined;
    const key = `${options.team}\u0000${config.leadSessionId ?? ''}`;
    if (warned.has(key)) return undefined;
    const records = new Map((await store.readMemberRecords(options.team)).map((r) => [r.name, r]));
    const warning = leadCannotHear(config, records);
    if (warning !== undefined) warned.add(key);
    return warning;
  } catch {
    return undefined;
  }
}
