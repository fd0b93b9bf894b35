/**
 * `mailroom store copy`: a team from one store to another (e.g. a Claude Code team into Redis and
 * back). The source is read through the ordinary store reads into a {@link TeamImage}; the target
 * writes it in one transition ({@link TeamStore.importTeam}), which keeps task ids, the high-water
 * mark, inbox entries with their read state, member records and the journal, and refuses a team
 * that exists there. Leases, reader claims and idempotency keys stay behind: they belong to the
 * runtimes of the source.
 */
import { MailroomError } from '../../errors.js';
import type { InboxImage, TeamImage, TeamStore } from '../../store/team-store.js';
import type { Stores } from '../../store/selection.js';

/** Input of {@link copyTeam}. */
export interface CopyTeamOptions {
  from: Stores;
  to: Stores;
  team: string;
}

/** What {@link copyTeam} copied. */
export interface CopyReport {
  team: string;
  /** Where from and where to, for humans (a directory, or a URL without its password). */
  from: string;
  to: string;
  members: number;
  inboxes: number;
  /** Live inbox entries, and how many of them were unread. */
  entries: number;
  unread: number;
  /** Archived (read) entries. */
  archived: number;
  tasks: number;
  highWatermark: string;
  memberRecords: number;
  events: number;
}

/** How many times the source is read again when it changed while it was read. */
const READ_ATTEMPTS = 3;

/**
 * Reads a whole team: config, member records, every inbox (live and archived entries), tasks, the
 * high-water mark and the journal. Read again when the journal grew meanwhile (something changed
 * the team mid-read), so the image is of one moment.
 * @throws TEAM_NOT_FOUND, FILE_CORRUPT (a source file that does not parse: nothing is copied),
 * TEAM_ACTIVE (the team kept changing: stop its teammates first)
 */
export async function readTeamImage(store: TeamStore, team: string): Promise<TeamImage> {
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    const journal = await store.readEvents(team);
    const config = await store.readConfig(team);
    const memberRecords = await store.readMemberRecords(team);
    const inboxes: InboxImage[] = [];
    for (const ref of await store.listInboxes(team)) {
      const entries = await store.readInbox(team, ref.name);
      const { archived } = await store.readInboxHistory(team, ref.name);
      inboxes.push({ name: ref.name, entries, archived });
    }
    const tasks = await store.listTasks(team);
    const mark = await store.readHighWatermark(team);
    const highest = tasks.reduce((max, t) => (BigInt(t.id) > max ? BigInt(t.id) : max), BigInt(mark));
    const later = await store.readEvents(team, { since: journal.cursor });
    if (later.events.length === 0 && !later.reset) {
      return { config, inboxes, tasks, highWatermark: String(highest), memberRecords, events: journal.events };
    }
  }
  throw new MailroomError('TEAM_ACTIVE', `Team "${team}" kept changing while it was read for the copy. Stop its teammates (\`mailroom team stop <name>\`) and retry.`, { details: { team } });
}

/**
 * Copies `team` from one store to another.
 * @throws TEAM_NOT_FOUND (source), TEAM_EXISTS (target: nothing written), INVALID_ARGUMENT (same
 * store on both sides; a task id the target cannot keep), FILE_CORRUPT, TEAM_ACTIVE,
 * STORE_UNAVAILABLE
 */
export async function copyTeam(options: CopyTeamOptions): Promise<CopyReport> {
  const { from, to, team } = options;
  if (sameStore(from, to)) {
    throw new MailroomError('INVALID_ARGUMENT', `--from and --to are the same store (${from.team.location}): a copy needs another store. Name a directory or a redis:// URL for --to.`, { details: { from: from.team.location } });
  }
  const image = await readTeamImage(from.team, team);
  await to.team.importTeam(image, { actor: 'user' });
  const entries = image.inboxes.flatMap((i) => i.entries);
  return {
    team,
    from: from.team.location,
    to: to.team.location,
    members: image.config.members.length,
    inboxes: image.inboxes.length,
    entries: entries.length,
    unread: entries.filter((e) => e.read !== true).length,
    archived: image.inboxes.reduce((n, i) => n + i.archived.length, 0),
    tasks: image.tasks.length,
    highWatermark: image.highWatermark,
    memberRecords: image.memberRecords.length,
    events: image.events.length,
  };
}

/** Both sides are one store: the same directory, or the same server and database. */
function sameStore(a: Stores, b: Stores): boolean {
  return a.selection.kind === b.selection.kind && a.team.location === b.team.location;
}
