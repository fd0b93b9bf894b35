/**
 * `mailroom bridge` as a library use case (docs/bridge.md): keeps a Claude Code team on this
 * machine (the filesystem store, Claude Code's own files and lock protocol) and a team in a shared
 * store (Redis) one team. Push-driven: both stores' watches mark what changed (an inbox, the
 * roster, presence) and one worker syncs exactly that, so a burst of writes coalesces into one
 * step; nothing polls. After every step the state ({@link BridgeState}, the bridge's cursor) is
 * saved in the host store, so a bridge killed at any point and started again loses and duplicates
 * nothing. A shared store that cannot be reached is reported (`offline`) and retried with backoff;
 * the local team keeps working on its own files, and everything that changed meanwhile is synced
 * on reconnect.
 */
import { MailroomError } from '../errors.js';
import type { TeamConfig } from '../protocol/config.js';
import type { HostStore } from '../store/host-store.js';
import type { Cursor, StoreHint, TeamStore, WatchHandle } from '../store/team-store.js';
import { archiverDelayMs, archiveSynced } from './archive.js';
import { syncRoster, teamSeed } from './members.js';
import { sharedId } from './identity.js';
import { InboxMirror, type Side } from './inbox-mirror.js';
import { syncInbox } from './messages.js';
import { syncTasks } from './tasks.js';
import { loadState, logLine, stateText, type BridgeState, type SyncedChange } from './state.js';

/** What the bridge reports as it runs (one line each in the CLI). */
export type BridgeStatus =
  | { kind: 'online' }
  | { kind: 'offline'; error: string; retryInMs: number }
  | { kind: 'local-missing' }
  | { kind: 'synced'; member: string; toRemote: number; toLocal: number; readRemote: number; readLocal: number }
  | { kind: 'roster'; changed: string[] }
  | { kind: 'tasks'; toLocal: number; toRemote: number; conflicts: string[] }
  /** The archiver moved `moved` read messages of `member`'s local inbox to its archive (docs/bridge.md "Archiving"). */
  | { kind: 'archived'; member: string; moved: number }
  | { kind: 'warning'; message: string };

/** Options of {@link startBridge}. */
export interface BridgeOptions {
  team: string;
  /** This machine's Claude Code team: the filesystem store at Claude Code's directory. */
  local: TeamStore;
  /** Where the bridge keeps its state (this machine's host store). */
  host: HostStore;
  /** The shared team store (Redis). */
  remote: TeamStore;
  onStatus?: ((status: BridgeStatus) => void) | undefined;
  /** Presence re-check period (ms, default 5 000: a claim can die without any write). */
  presenceMs?: number | undefined;
  /** First retry delay after the shared store failed (ms, default 250, doubling to 5 000). */
  retryMs?: number | undefined;
  /**
   * Delay before each archiver pass after the first (ms; default {@link archiverDelayMs}: 60 s ± 20 %
   * at the default beat). The first pass runs right after the start step. `null`: no archiver.
   */
  archiveMs?: (() => number | undefined) | null | undefined;
}

/** A running bridge. */
export interface Bridge {
  /** Resolves when every change seen so far is synced (tests and benches wait on it). */
  idle(): Promise<void>;
  /** Stops watching and syncing; the state is saved. */
  stop(): Promise<void>;
}

/**
 * Starts a bridge: loads its state, syncs everything once, then follows both stores' hints.
 * @throws FILE_CORRUPT (saved state unreadable: never overwritten)
 */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const engine = new Engine(options, await loadState(options.host, options.team));
  await engine.start();
  return engine;
}

/** Inboxes synced at once in one step. */
const INBOX_CONCURRENCY = 8;

type Dirty = { all: boolean; roster: boolean; tasks: boolean; archive: boolean; inboxes: Set<string> };

class Engine implements Bridge {
  private dirty: Dirty = { all: true, roster: true, tasks: true, archive: false, inboxes: new Set() };
  private running: Promise<void> | undefined;
  private watches: WatchHandle[] = [];
  private remoteWatch: WatchHandle | undefined;
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private archiveTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private offline = false;
  private localSeen = false;
  private readonly deferred: string[] = [];
  /** Both copies of every inbox, kept between steps and brought up to date by their changes. */
  private readonly mirror: InboxMirror;
  /** Each inbox's synced set as a set (the state holds it as an array), kept between steps. */
  private readonly synced = new Map<string, Set<string>>();
  /** Shared ids found in each Redis inbox's archive or dead letters, kept: an archived message stays archived. */
  private readonly removedRemote = new Map<string, Set<string>>();
  /** Inboxes synced once since the start (the others' first step looks in Redis's archive, {@link syncInbox}). */
  private readonly followed = new Set<string>();
  /**
   * `<recipient>\0<msg_id>` of every `message` event in the local journal, read once per step that
   * needs it ({@link syncInbox}'s `landedLocal`: only inboxes' first steps since the start).
   */
  private landed: Promise<Set<string>> | undefined;
  /** Synced-set changes not yet saved: the next save appends them to the state's log. */
  private changes: SyncedChange[] = [];
  /**
   * The next save writes the state whole: the members or tasks changed, a save failed (what it
   * held is saved again with everything), or the log has grown past the state's size.
   */
  private whole = true;
  /** Bytes of the state last written whole, and of the log lines appended since. */
  private wholeBytes = 0;
  private logBytes = 0;
  /** The save in flight, if any: every later write to either store waits for it ({@link flush}). */
  private saving: Promise<void> | undefined;
  /** Both configs as last read (re-read on a roster hint, a full step, or after a failure). */
  private cfg: { local: TeamConfig; remote: TeamConfig } | undefined;
  private waiters: Array<() => void> = [];
  private readonly team: string;

  constructor(
    private readonly o: BridgeOptions,
    private state: BridgeState,
  ) {
    this.team = o.team;
    this.mirror = new InboxMirror(o.team);
  }

  async start(): Promise<void> {
    this.watches.push(await this.o.local.watch(this.team, (h) => this.onHint(h, 'local')));
    await this.watchRemote().catch(() => undefined);
    this.timer = setInterval(() => {
      this.mirror.staleAll();
      this.mark({ roster: true });
    }, this.o.presenceMs ?? 5_000);
    this.timer.unref();
    this.kick();
    await this.idle();
    // The first archiver pass right after the start step (soon: a history that piled up while no
    // runtime ran stops costing at once), then on the runtimes' schedule (./archive.ts).
    if (this.archiveDelay() !== undefined) this.mark({ archive: true });
  }

  private archiveDelay(): number | undefined {
    const option = this.o.archiveMs;
    return option === null ? undefined : option ? option() : archiverDelayMs();
  }

  private scheduleArchive(): void {
    const delay = this.archiveDelay();
    if (delay === undefined || this.stopped || this.archiveTimer) return;
    this.archiveTimer = setTimeout(() => {
      this.archiveTimer = undefined;
      this.mark({ archive: true });
    }, delay);
    this.archiveTimer.unref();
  }

  private async watchRemote(): Promise<void> {
    if (this.remoteWatch) return;
    this.remoteWatch = await this.o.remote.watch(this.team, (h) => this.onHint(h, 'remote'));
  }

  private onHint(hint: StoreHint, side: Side): void {
    if (hint.kind === 'inbox') {
      this.mirror.invalidate(side, hint.member);
      this.mark({ inbox: hint.member });
    }
    else if (hint.kind === 'config' || hint.kind === 'claims') this.mark({ roster: true });
    else if (hint.kind === 'task') this.mark({ tasks: true });
  }

  private mark(what: { inbox?: string; roster?: boolean; tasks?: boolean; all?: boolean; archive?: boolean }): void {
    if (what.tasks) this.dirty.tasks = true;
    if (what.archive) this.dirty.archive = true;
    if (what.inbox !== undefined) this.dirty.inboxes.add(what.inbox);
    if (what.roster) this.dirty.roster = true;
    if (what.all) this.dirty.all = true;
    if (!this.offline) this.kick();
  }

  private pending(): boolean {
    return this.dirty.all || this.dirty.roster || this.dirty.tasks || this.dirty.archive || this.dirty.inboxes.size > 0;
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.loop().finally(() => {
      this.running = undefined;
      if (this.pending() && !this.offline && !this.stopped) this.kick();
      else if (!this.pending() || this.stopped) this.wake();
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private async loop(): Promise<void> {
    while (this.pending() && !this.stopped) {
      const work = this.dirty;
      this.dirty = { all: false, roster: false, tasks: false, archive: false, inboxes: new Set() };
      try {
        await this.step(work);
        this.landed = undefined; // read again by a later first step (a member added since), not kept
        if (work.archive) this.scheduleArchive();
        if (this.offline) {
          this.offline = false;
          this.o.onStatus?.({ kind: 'online' });
        }
      } catch (err) {
        if (!isUnavailable(err)) {
          // Not the network: report it and go on; the next hint of that inbox or roster retries it.
          this.o.onStatus?.({ kind: 'warning', message: (err as Error).message });
          if (work.archive) this.scheduleArchive();
          this.cfg = undefined;
          this.mirror.clear();
          continue;
        }
        this.mergeBack(work);
        this.cfg = undefined;
        this.mirror.clear();
        await this.flushOrWarn();
        this.goOffline(err);
        return;
      }
    }
    await this.flushOrWarn();
  }

  private async flushOrWarn(): Promise<void> {
    try {
      await this.flush();
    } catch (err) {
      this.o.onStatus?.({ kind: 'warning', message: (err as Error).message });
    }
  }

  private mergeBack(work: Dirty): void {
    this.dirty.all ||= work.all;
    this.dirty.roster ||= work.roster;
    this.dirty.tasks ||= work.tasks;
    this.dirty.archive ||= work.archive;
    for (const m of work.inboxes) this.dirty.inboxes.add(m);
  }

  private retryDelay = 0;
  private goOffline(err: unknown): void {
    const first = this.o.retryMs ?? 250;
    this.retryDelay = this.offline ? Math.min(this.retryDelay * 2, 5_000) : first;
    this.offline = true;
    this.dirty.all = true;
    this.o.onStatus?.({ kind: 'offline', error: (err as Error).message, retryInMs: this.retryDelay });
    this.wake();
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.watchRemote().catch(() => undefined);
      this.kick(); // stays offline until a step succeeds (loop() then reports online)
    }, this.retryDelay);
  }

  /** One sync step over what `work` names. */
  private async step(work: Dirty): Promise<void> {
    if (work.all || work.roster || work.tasks || !this.cfg) await this.flush();
    if (work.all || work.roster || !this.cfg) {
      this.cfg = undefined;
      const fresh = await this.configs();
      if (!fresh) return;
      await this.roster(fresh);
      this.cfg = fresh;
    }
    const configs = this.cfg;
    if (work.all || work.tasks) await this.tasks();
    const names = work.all ? await this.inboxNames(configs) : [...work.inboxes];
    const members = new Set([...configs.local.members.map((m) => m.name)]);
    const remoteMembers = new Set(configs.remote.members.map((m) => m.name));
    if (work.all || work.roster) names.push(...this.deferred.splice(0));
    const due: string[] = [];
    for (const member of new Set(names)) {
      if (members.has(member) && remoteMembers.has(member)) due.push(member);
      // Not (yet) a member on both sides: synced after the next roster step adds it.
      else if (!this.deferred.includes(member)) this.deferred.push(member);
    }
    // Inboxes are independent: each is synced beside the others, so one inbox's fsynced write into
    // a Claude Code file does not hold up another's copy to Redis (at most INBOX_CONCURRENCY at once).
    const failures: unknown[] = [];
    for (let i = 0; i < due.length; i += INBOX_CONCURRENCY) {
      const settled = await Promise.allSettled(due.slice(i, i + INBOX_CONCURRENCY).map((member) => this.syncMember(work, member)));
      for (const r of settled) if (r.status === 'rejected') failures.push(r.reason);
    }
    if (failures.length > 0) throw failures.find(isUnavailable) ?? failures[0];
    if (work.archive) await this.archivePass(configs.local);
  }

  /**
   * The archiver's pass (./archive.ts), in the worker's loop so that no sync step runs beside it:
   * the synced sets are saved first, and each followed inbox's read head moves only as far as its
   * entries are in its saved set. An inbox that fails is reported and retried at the next pass
   * (the loop schedules the next pass after every step that had one due, whatever became of it).
   */
  private async archivePass(config: TeamConfig): Promise<void> {
    await this.flush();
    for (const [member, set] of this.synced) {
      const copy = this.mirror.known('local', member);
      if (!copy) continue;
      try {
        const moved = await archiveSynced(this.o.local, this.team, config, member, copy, set);
        if (moved === 0) continue;
        this.mirror.invalidate('local', member);
        this.o.onStatus?.({ kind: 'archived', member, moved });
      } catch (err) {
        this.o.onStatus?.({ kind: 'warning', message: `could not archive ${member}'s inbox (will retry): ${(err as Error).message}` });
      }
    }
  }

  /** Syncs one inbox (messages and read flags) and starts saving what changed in its synced set. */
  private async syncMember(work: Dirty, member: string): Promise<void> {
    const store = (side: Side) => (side === 'local' ? this.o.local : this.o.remote);
    let removed = this.removedRemote.get(member);
    if (!removed) this.removedRemote.set(member, (removed = new Set()));
    const gone = goneOnce(this.team, member, store, removed);
    const sides = {
      team: this.team,
      member,
      local: this.o.local,
      remote: this.o.remote,
      gone,
      restarted: !this.followed.has(member),
      landedLocal: async (id: string) => (await this.landedLocal()).has(`${member}\u0000${id}`),
      read: (side: Side) => this.mirror.read(side, store(side), member),
      wrote: (side: Side) => this.mirror.invalidate(side, member),
      beforeWrite: () => this.flush(),
    };
    if (work.all) {
      this.mirror.invalidate('local', member);
      this.mirror.invalidate('remote', member);
    }
    let set = this.synced.get(member);
    if (!set) this.synced.set(member, (set = new Set(this.state.synced[member] ?? [])));
    const r = await syncInbox(sides, set);
    this.followed.add(member);
    if (r.add.length + r.drop.length > 0) {
      // Saved only when the set changed: a step that copied nothing and dropped nothing (most
      // often the echo of this bridge's own write) has nothing new to remember.
      for (const id of r.add) set.add(id);
      for (const id of r.drop) set.delete(id);
      this.changes.push({ member, add: r.add, drop: r.drop });
    }
    // Saved while the next step reads; that step's first write waits for it (beforeWrite).
    if (this.changes.length > 0 || this.whole) this.saveSoon();
    const { toRemote, toLocal, readRemote, readLocal } = r;
    if (toLocal + toRemote + readLocal + readRemote > 0) this.o.onStatus?.({ kind: 'synced', member, toRemote, toLocal, readRemote, readLocal });
  }

  /** Saves the whole state (the bridge's cursor, docs/bridge.md "Restart") and waits for it. */
  private async save(): Promise<void> {
    this.whole = true;
    this.saveSoon();
    await this.flush();
  }

  /**
   * Starts saving the state as it is now, after any save in flight (saves land in order). Nothing
   * is written to either store until it is done ({@link flush} before every write), so each write
   * finds the state of every step before it saved, exactly as if the save were awaited in place;
   * only the next step's reads overlap the fsync. A step's synced-set changes are appended to the
   * state's log (their own size, issue 24 item 4); the state is written whole when the members or
   * tasks changed, and when the log has grown past the whole state's size (so a load reads at most
   * twice the state). A failed save makes the next save a whole one: nothing it held is lost.
   */
  private saveSoon(): void {
    const write = this.whole || this.logBytes > Math.max(this.wholeBytes, 64 * 1024) ? this.wholeWrite() : this.logWrite();
    this.changes = [];
    const prev = this.saving;
    const next = (async () => {
      await prev?.catch(() => undefined);
      await write();
    })();
    next.catch(() => {
      this.whole = true;
    });
    this.saving = next;
  }

  private wholeWrite(): () => Promise<void> {
    for (const [member, set] of this.synced) this.state.synced[member] = [...set];
    const text = stateText(this.state);
    this.whole = false;
    this.wholeBytes = text.length;
    this.logBytes = 0;
    return () => this.o.host.writeBridgeState(this.team, text);
  }

  private logWrite(): () => Promise<void> {
    const line = logLine(this.changes);
    this.logBytes += line.length;
    return () => this.o.host.appendBridgeStateLog(this.team, line);
  }

  /** Waits for the saves in flight. @throws what the last one threw */
  private async flush(): Promise<void> {
    const pending = this.saving;
    if (!pending) return;
    try {
      await pending;
    } finally {
      if (this.saving === pending) this.saving = undefined;
    }
  }

  private landedLocal(): Promise<Set<string>> {
    this.landed ??= landedIds(this.o.local, this.team).catch((err: unknown) => {
      this.landed = undefined;
      throw err;
    });
    return this.landed;
  }

  private async inboxNames(configs: { local: TeamConfig; remote: TeamConfig }): Promise<string[]> {
    return [...new Set([...configs.local.members, ...configs.remote.members].map((m) => m.name))];
  }

  /**
   * Both configs, creating a side's team from the other's when it has none. The local team is
   * created from the shared one only until it was seen here: once Claude Code removed it (its
   * clean-up at exit), it is not brought back and nothing is removed remotely.
   */
  private async configs(): Promise<{ local: TeamConfig; remote: TeamConfig } | undefined> {
    let [local, remote] = await Promise.all([readOrMissing(this.o.local, this.team), readOrMissing(this.o.remote, this.team)]);
    if (!local && !remote) {
      this.o.onStatus?.({ kind: 'local-missing' });
      return undefined;
    }
    if (!remote && local) {
      remote = (await this.o.remote.createTeam(teamSeed(local, false), { actor: 'mailroom-bridge' })).value;
      this.state.members[local.members.find((m) => m.agentId === local!.leadAgentId)?.name ?? ''] = 'local';
      this.whole = true;
    }
    if (!local && remote) {
      if (this.localSeen) {
        this.o.onStatus?.({ kind: 'local-missing' });
        return undefined;
      }
      local = (await this.o.local.createTeam(teamSeed(remote, true), { actor: 'mailroom-bridge' })).value;
      this.state.members[remote.members.find((m) => m.agentId === remote!.leadAgentId)?.name ?? ''] = 'remote';
      this.whole = true;
    }
    this.localSeen = true;
    return { local: local!, remote: remote! };
  }

  private async tasks(): Promise<void> {
    if (!(await readOrMissing(this.o.local, this.team))) return; // Claude Code removed its team: nothing to sync
    const r = await syncTasks({ team: this.team, local: this.o.local, remote: this.o.remote }, this.state.tasks);
    this.state.tasks = r.base;
    await this.save();
    if (r.again) this.dirty.tasks = true; // a local file changed under the step: sync it again
    if (r.toLocal + r.toRemote + r.conflicts.length > 0) this.o.onStatus?.({ kind: 'tasks', toLocal: r.toLocal, toRemote: r.toRemote, conflicts: r.conflicts });
  }

  private async roster(configs: { local: TeamConfig; remote: TeamConfig }): Promise<void> {
    const claims = await this.o.remote.readClaims(this.team);
    const before = JSON.stringify(this.state.members);
    const r = await syncRoster({ team: this.team, local: this.o.local, remote: this.o.remote, localConfig: configs.local, remoteConfig: configs.remote, claims, now: Date.now() }, this.state.members);
    this.state.members = r.members;
    // Written whole only when the members changed (or a whole write is due): the presence tick runs
    // this step every 5 s, and the whole state grows with the inboxes' history.
    if (this.whole || JSON.stringify(r.members) !== before) await this.save();
    if (r.changed.length > 0) {
      this.o.onStatus?.({ kind: 'roster', changed: r.changed });
      const [local, remote] = await Promise.all([this.o.local.readConfig(this.team), this.o.remote.readConfig(this.team)]);
      configs.local = local;
      configs.remote = remote;
    }
  }

  idle(): Promise<void> {
    if ((!this.running && !this.pending()) || this.stopped || this.offline) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.retry) clearTimeout(this.retry);
    if (this.archiveTimer) clearTimeout(this.archiveTimer);
    await this.running?.catch(() => undefined);
    for (const w of [...this.watches, ...(this.remoteWatch ? [this.remoteWatch] : [])]) await w.close().catch(() => undefined);
    this.wake();
  }
}

async function readOrMissing(store: TeamStore, team: string): Promise<TeamConfig | undefined> {
  try {
    return await store.readConfig(team);
  } catch (err) {
    if (err instanceof MailroomError && err.code === 'TEAM_NOT_FOUND') return undefined;
    throw err;
  }
}

/** `<recipient>\0<msg_id>` of every `message` event in a store's journal (docs/journal.md). */
async function landedIds(store: TeamStore, team: string): Promise<Set<string>> {
  const out = new Set<string>();
  let since: Cursor | undefined;
  for (;;) {
    const page = await store.readEvents(team, { since, limit: 10_000 });
    for (const e of page.events) if (e.kind === 'message' && e.entry.msg_id !== undefined) out.add(`${e.to}\u0000${e.entry.msg_id}`);
    if (page.events.length === 0 || (since !== undefined && page.cursor === since)) return out;
    since = page.cursor;
  }
}

function isUnavailable(err: unknown): boolean {
  return err instanceof MailroomError && err.code === 'STORE_UNAVAILABLE';
}

/**
 * `InboxSides.gone` for one inbox step, each store asked at most once per step: whether the inbox
 * exists, and on Redis the shared ids of its archive and of its dead letters (a synced entry gone
 * from Redis and in neither was lost by the server, never read). `known` keeps the ids found there
 * between steps (an archived message stays archived): the archive is read only for an id not in it.
 */
function goneOnce(team: string, member: string, store: (side: Side) => TeamStore, known: Set<string>): (side: Side, id: string) => Promise<'none' | 'read' | 'lost'> {
  const exists = new Map<Side, Promise<boolean>>();
  let looked: Promise<void> | undefined;
  const look = async (): Promise<void> => {
    const [history, dead] = await Promise.all([store('remote').readInboxHistory(team, member), store('remote').listDeadLetters(team)]);
    for (const e of [...history.archived, ...history.setAside]) known.add(e.msg_id ?? sharedId(team, member, e));
    for (const d of dead) if (d.to === member) known.add(d.entry.msg_id ?? sharedId(team, member, d.entry));
  };
  return async (side, id) => {
    let there = exists.get(side);
    if (!there) exists.set(side, (there = store(side).listInboxes(team).then((l) => l.some((i) => i.name === member))));
    if (!(await there)) return 'none';
    if (side === 'local') return 'read';
    if (!known.has(id)) await (looked ??= look());
    return known.has(id) ? 'read' : 'lost';
  };
}
