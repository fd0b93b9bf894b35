/**
 * The filesystem {@link HostStore}: this machine's records beside the team data of a filesystem
 * root (pid records and logs under `teams/<team>/`, command records under `<root>/mailroom/commands/`),
 * or alone in the local directory next to a network team store. Also the files a user names
 * (team files, scripts, work directories) and the process probe (`/proc`).
 */
import { rm } from 'node:fs/promises';
import { constants, readFileSync } from 'node:fs';
import { lstat, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MailroomError } from '../../errors.js';
import { DIR_MODE, FILE_MODE } from './modes.js';
import { hostname } from 'node:os';
import type { CommandRecord } from '../../protocol/command.js';
import type { LeadPin, ObeyedIds, SeenIds, StoredKey } from '../../protocol/identity-files.js';
import type { ProcessRecord } from '../../protocol/process.js';
import type { StoreIssue, StoreRepair } from '../health.js';
import type { AgentLog, HostStore } from '../host-store.js';
import type { LockOptions } from './lock.js';
import { Layout } from './paths.js';
import { probeProcess, type ProcessProbe } from './proc.js';
import { ensureUserDir, readUserFile, requireUserDir, userFileMtimeMs } from './user-files.js';
import * as keys from './keys.js';
import { readSmallFile } from './small-file.js';
import type { FsContext } from './context.js';

let cachedHostId: string | undefined;

/**
 * This machine's id: its hostname and the first 8 hex digits of `/etc/machine-id` (systemd's, also
 * under `/var/lib/dbus/`), so that two machines with one hostname differ; the hostname alone where
 * neither file exists. Read once per process.
 */
export function localHostId(): string {
  if (cachedHostId !== undefined) return cachedHostId;
  let machine = '';
  for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      machine = readFileSync(path, 'utf8').trim().slice(0, 8);
      if (machine !== '') break;
    } catch {
      // not there: try the next, else the hostname alone
    }
  }
  cachedHostId = machine === '' ? hostname() : `${hostname()}-${machine}`;
  return cachedHostId;
}

/**
 * Whether the regular file at `path` holds the note of `key` (`${key}\n`), or nothing (a note whose
 * writer died between creating and writing it).
 */
async function isNoteOf(path: string, key: string): Promise<boolean> {
  const text = await readFile(path, { encoding: 'utf8', flag: constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW }).catch(() => undefined);
  return text === '' || text === `${key}\n`;
}

/** Host store over a local directory. Cheap to construct; holds no open handles. */
export class FsHostStore implements HostStore {
  private readonly ctx: FsContext;

  constructor(root: string, lock: LockOptions = {}) {
    this.ctx = { layout: new Layout(root), lock };
  }

  /**
   * The note is `${key}\n`, its mtime the last showing. Only a note of that content is ever replaced,
   * and only by the process whose rename moves the old one aside; the new note is created
   * exclusively (`wx`), so of processes asking at once one is answered true. Anything else at the
   * path (a FIFO, a directory, a file of other content) is left as it is and the answer is true:
   * the notice is shown, never an error, never a hang.
   */
  async firstInPeriod(key: string, periodMs: number): Promise<boolean> {
    const path = this.ctx.layout.notePath(key);
    const found = await lstat(path).catch(() => undefined);
    if (found !== undefined) {
      if (!found.isFile() || found.size > 4096 || !(await isNoteOf(path, key))) return true; // not a note: shown, left alone
      if (Date.now() - found.mtimeMs < periodMs) return false;
      const aside = `${path}.${randomBytes(6).toString('hex')}.old`;
      // The old note moved aside by one process only: the others were too late (another renews it).
      if (!(await rename(path, aside).then(() => true, () => false))) return false;
      await rm(aside, { force: true }).catch(() => undefined);
    }
    const made = await mkdir(dirname(path), { recursive: true, mode: DIR_MODE }).then(() => true, () => false);
    if (!made) return true; // cannot note it: shown again next time, never an error
    return writeFile(path, `${key}\n`, { mode: FILE_MODE, flag: 'wx' }).then(
      () => true,
      (err: NodeJS.ErrnoException) => err.code !== 'EEXIST', // EEXIST: another process noted it just now
    );
  }

  get hostId(): string {
    return localHostId();
  }
  get location(): string {
    return this.ctx.layout.root;
  }

  async readTeamKey(team: string): Promise<Buffer | undefined> {
    const path = this.ctx.layout.teamKeyPath(team);
    // Synchronous, like the other identity files (keys.ts); a FIFO or device must not block that read.
    const found = readSmallFile(path, keys.IDENTITY_FILE_MAX_BYTES);
    if (found.kind === 'missing') return undefined;
    if (found.kind === 'special') throw new MailroomError('FILE_CORRUPT', `${path} is not a mailroom team key (not a regular file): move it aside and restore the key from the machine that made it.`, { details: { path } });
    if (found.kind === 'large') throw keys.identityFileTooLarge(path, 'team key', found.size);
    const text = found.text.trim();
    if (!/^[0-9a-f]{64}$/.test(text)) throw new MailroomError('FILE_CORRUPT', `${path} is not a mailroom team key (64 hex digits): restore it from the machine that made it.`, { details: { path } });
    return Buffer.from(text, 'hex');
  }

  async createTeamKey(team: string): Promise<Buffer> {
    const path = this.ctx.layout.teamKeyPath(team);
    await mkdir(dirname(path), { recursive: true, mode: DIR_MODE });
    const key = randomBytes(32);
    try {
      await writeFile(path, `${key.toString('hex')}\n`, { mode: FILE_MODE, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new MailroomError('TEAM_EXISTS', `Team "${team}" already has a signing key (${path}): keep it, or move it away first.`, { details: { path } });
      throw err;
    }
    return key;
  }

  readMemberKey(team: string, member: string): Promise<StoredKey | undefined> {
    return keys.readMemberKey(this.ctx, team, member);
  }
  writeMemberKey(key: StoredKey): Promise<void> {
    return keys.writeMemberKey(this.ctx, key);
  }
  readLeadPin(team: string): Promise<LeadPin | undefined> {
    return keys.readLeadPin(this.ctx, team);
  }
  writeLeadPin(pin: LeadPin): Promise<void> {
    return keys.writeLeadPin(this.ctx, pin);
  }
  readObeyed(team: string, member: string): Promise<ObeyedIds | undefined> {
    return keys.readObeyed(this.ctx, team, member);
  }
  writeObeyed(team: string, member: string, obeyed: ObeyedIds): Promise<void> {
    return keys.writeObeyed(this.ctx, team, member, obeyed);
  }
  readSeen(team: string, member: string): Promise<SeenIds | undefined> {
    return keys.readSeen(this.ctx, team, member);
  }
  writeSeen(team: string, member: string, seen: SeenIds): Promise<void> {
    return keys.writeSeen(this.ctx, team, member, seen);
  }

  async readHooksFile(team: string): Promise<{ path: string; text: string } | undefined> {
    const path = this.ctx.layout.hooksPath(team);
    try {
      return { path, text: await readFile(path, 'utf8') };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  readProcessRecord(team: string, member: string): Promise<ProcessRecord | undefined> {
    return import('./processes.js').then((m) => m.readProcessRecord(this.ctx, team, member));
  }
  writeProcessRecord(team: string, member: string, record: ProcessRecord): Promise<void> {
    return import('./processes.js').then((m) => m.writeProcessRecord(this.ctx, team, member, record));
  }
  claimProcessRecord(team: string, member: string, record: ProcessRecord): Promise<ProcessRecord | undefined> {
    return import('./processes.js').then((m) => m.claimProcessRecord(this.ctx, team, member, record));
  }
  claimBridgeRecord(team: string, record: ProcessRecord): Promise<ProcessRecord | undefined> {
    return import('./processes.js').then((m) => m.claimRecordAt(this.ctx, this.ctx.layout.bridgeRecordPath(team), record));
  }
  async releaseBridgeRecord(team: string, pid: number): Promise<void> {
    const path = this.ctx.layout.bridgeRecordPath(team);
    const current = await import('./processes.js').then((m) => m.readRecordAt(path)).catch(() => undefined);
    if (current?.pid === pid) await rm(path, { force: true });
  }

  deleteProcessRecord(team: string, member: string): Promise<void> {
    return import('./processes.js').then((m) => m.deleteProcessRecord(this.ctx, team, member));
  }
  listProcessRecords(team: string): Promise<ProcessRecord[]> {
    return import('./processes.js').then((m) => m.listProcessRecords(this.ctx, team));
  }
  appendTranscript(team: string, member: string, lines: readonly string[], maxBytes: number): Promise<void> {
    return import('./transcripts.js').then((m) => m.appendTranscript(this.ctx, team, member, lines, maxBytes));
  }
  readTranscript(team: string, member: string): Promise<string> {
    return import('./transcripts.js').then((m) => m.readTranscript(this.ctx, team, member));
  }
  openAgentLog(team: string, member: string): Promise<AgentLog> {
    return import('./processes.js').then((m) => m.openAgentLog(this.ctx, team, member));
  }
  readAgentLog(team: string, member: string, options?: { from?: number; maxBytes?: number }): Promise<string> {
    return import('./processes.js').then((m) => m.readAgentLog(this.ctx, team, member, options));
  }
  writeCommandRecord(record: CommandRecord): Promise<void> {
    return import('./commands.js').then((m) => m.writeCommandRecord(this.ctx, record));
  }
  deleteCommandRecord(team: string, pid: number): Promise<void> {
    return import('./commands.js').then((m) => m.deleteCommandRecord(this.ctx, team, pid));
  }
  listCommandRecords(team?: string): Promise<CommandRecord[]> {
    return import('./commands.js').then((m) => m.listCommandRecords(this.ctx, team));
  }
  probeProcess(pid: number): Promise<ProcessProbe> {
    return probeProcess(pid);
  }
  readUserFile(path: string, what?: string): Promise<string> {
    return readUserFile(path, what);
  }
  ensureUserDir(path: string, what?: string): Promise<string> {
    return ensureUserDir(path, what);
  }
  requireUserDir(path: string, what?: string): Promise<string> {
    return requireUserDir(path, what);
  }
  userFileMtimeMs(path: string): Promise<number | undefined> {
    return userFileMtimeMs(path);
  }
  readBridgeState(team: string): Promise<string | undefined> {
    return import('./bridge-state.js').then((m) => m.readBridgeState(this.ctx, team));
  }
  writeBridgeState(team: string, text: string): Promise<void> {
    return import('./bridge-state.js').then((m) => m.writeBridgeState(this.ctx, team, text));
  }
  appendBridgeStateLog(team: string, line: string): Promise<void> {
    return import('./bridge-state.js').then((m) => m.appendBridgeStateLog(this.ctx, team, line));
  }
  readBridgeStateLog(team: string): Promise<string[]> {
    return import('./bridge-state.js').then((m) => m.readBridgeStateLog(this.ctx, team));
  }
  scanHealth(): Promise<StoreIssue[]> {
    return import('./health-scan.js').then((m) => m.scanHostHealth(this.ctx));
  }
  repairHealth(issue: StoreIssue): Promise<StoreRepair> {
    return import('./health-repair.js').then((m) => m.repairHealth(this.ctx, issue));
  }
}
