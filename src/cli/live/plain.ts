/**
 * `mailroom watch` without a terminal (piped, CI, another agent): no screen and no raw mode, one
 * line per event on stdout (plain, or NDJSON with `--json`) until SIGINT/SIGTERM, a closed pipe, or
 * the team's removal by Claude Code at the end of its session.
 */
import { followTeam } from '../../core/live/follow.js';
import type { Stores } from '../../store/selection.js';
import type { TeamEvent } from '../../core/live/watch-events.js';
import { eventLine, eventRecord, leaseLine, leaseRecord, problemLines, readyLine, readyRecord, requestFields, requestLine, requestRecord } from './records.js';
import { followLeases } from '../../core/live/leases-follow.js';
import { followRequests } from '../../core/live/requests-follow.js';
import { hintScope, scopeHints } from '../../core/text/hint-scope.js';
import { terminalSafe } from '../../core/text/terminal-text.js';
import { untilStopped, writeLine } from './stop.js';
import { writeStderr } from '../output.js';

/** How often (ms) a plain watch lists the leases again besides after journal changes. */
const LEASE_REFRESH_MS = 10_000;

/** Options of {@link runPlainWatch}. */
export interface PlainWatchOptions {
  store: Stores;
  team: string;
  json: boolean;
  record: boolean;
}

/**
 * Prints a ready line (with `--json`, the open requests in its `requests` and the live path leases
 * in its `leases`; plain, one line per open request and per lease after it), then one line per
 * event, a `request` line when a request opens or is answered, and a `lease` line when a lease is
 * taken or ends. Resolves when stopped, or once the team is removed
 * for good (Claude Code ended its session: the last line says so). @throws TEAM_NOT_FOUND
 */
export async function runPlainWatch(o: PlainWatchOptions): Promise<void> {
  // Listening for SIGINT/SIGTERM before the first line: a reader that stops us the moment it sees
  // the ready line must get a clean exit, not the default death by signal.
  const stopped = untilStopped();
  const print = (plain: string, json: Record<string, unknown>) => writeLine(o.json ? JSON.stringify(json) : terminalSafe(plain));
  const onError = (err: unknown) => writeStderr(`mailroom watch: ${err instanceof Error ? err.message : String(err)}\n`);
  // The same listing as `mailroom requests`, again after each update of the feed. A listing that
  // fails (the team being removed, a corrupt inbox) is not printed: the feed reports those itself.
  let started = false;
  const requests = await followRequests(
    { root: o.store, team: o.team },
    (change) => {
      if (!started) return;
      const now = Date.now();
      for (const r of change.opened) print(requestLine(now, r, 'open'), requestRecord(o.team, now, r, 'open'));
      for (const r of change.closed) print(requestLine(now, r, 'answered'), requestRecord(o.team, now, r, 'answered'));
    },
  );
  // The live path leases (docs/leases.md), listed again when the journal moves (every lease change
  // is journalled) and every LEASE_REFRESH_MS (a lease that ends at its TTL is noticed by a listing).
  const leases = await followLeases({ root: o.store, team: o.team }, (change) => {
    if (!started) return;
    const now = Date.now();
    for (const l of change.acquired) print(leaseLine(now, l, 'held'), leaseRecord(o.team, now, l, 'held'));
    for (const l of change.ended) print(leaseLine(now, l, 'ended'), leaseRecord(o.team, now, l, 'ended'));
  });
  const following = await followTeam({
    store: o.store,
    team: o.team,
    record: o.record,
    onUpdate: (update) => {
      const now = Date.now();
      for (const e of update.events) print(eventLine(now, e), eventRecord(o.team, now, e));
      if (started) void requests.refresh();
    },
    onError,
  });
  const offLeases = following.feed.subscribe((hint) => {
    if (hint.kind === 'events' || hint.kind === 'config') void leases.refresh();
  });
  const leaseTimer = setInterval(() => void leases.refresh(), LEASE_REFRESH_MS);
  leaseTimer.unref();
  const now = Date.now();
  // A corrupt file is flagged and the rest of the team shown: the ready record carries `problems`,
  // each with the command that repairs it (carrying this command's --root/--store/--claude).
  const scope = hintScope(process.argv.slice(2));
  const ready = readyRecord(following.initial, now);
  if (following.initial.problems.length > 0) ready.problems = following.initial.problems.map((p) => ({ ...p, message: scopeHints(p.message, scope), ...(p.fix ? { fix: scopeHints(`\`${p.fix}\``, scope).slice(1, -1) } : {}) }));
  const open = requests.current();
  ready.requests = open.map(requestFields);
  ready.leases = leases.current();
  print(readyLine(following.initial, now), ready);
  if (!o.json) for (const line of problemLines(following.initial, now)) writeLine(terminalSafe(scopeHints(line, scope)));
  if (!o.json) for (const r of open) writeLine(terminalSafe(requestLine(now, r, 'open')));
  if (!o.json) for (const l of leases.current()) writeLine(terminalSafe(leaseLine(now, l, 'held')));
  started = true;
  // A request sent between the first listing and now is printed by this listing.
  void requests.refresh();
  void leases.refresh();
  const ended = following.initial.ended;
  if (ended) {
    const e: TeamEvent = { kind: 'team', action: 'removed', final: true, ...(ended.location ? { location: ended.location } : {}) };
    print(eventLine(now, e), eventRecord(o.team, now, e));
  }
  await Promise.race([stopped, following.ended]);
  clearInterval(leaseTimer);
  offLeases();
  await following.close();
}
