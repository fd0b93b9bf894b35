/**
 * Errors thrown by mailroom. Every error has a stable string `code` that scripts can match on,
 * a message that says what went wrong and how to fix it, and optional structured `details`.
 * Exit codes for the CLI are derived from the code in exactly one place: {@link exitCodeFor}.
 */

/** Every stable error code mailroom can throw. */
export type ErrorCode =
  | 'USAGE'
  | 'INVALID_NAME'
  | 'INVALID_ARGUMENT'
  | 'TEAM_NOT_FOUND'
  | 'TEAM_EXISTS'
  | 'TEAM_AMBIGUOUS'
  | 'TEAM_ACTIVE'
  | 'MEMBER_NOT_FOUND'
  | 'MEMBER_EXISTS'
  | 'TASK_NOT_FOUND'
  | 'REQUEST_NOT_FOUND'
  | 'TASK_BLOCKED'
  | 'TASK_CYCLE'
  | 'TASK_ALREADY_CLAIMED'
  | 'TASK_ALREADY_RESOLVED'
  | 'TASK_CONFLICT'
  // A send whose view of the team (roster, settings, member records) changed before its append's step, again and again (issue 24).
  | 'VIEW_MOVED'
  // An idempotency key used again for a different call (src/domain/key-reused.ts).
  | 'KEY_REUSED'
  // A task write carrying a stale fencing token (src/domain/task-fence.ts): its writer lost the task.
  | 'TASK_FENCED'
  | 'AGENT_BUSY'
  | 'NOT_PERMITTED'
  // Signed teams (issue 22): a member's private key is not on this machine; a key file others can
  // read; `log --verify` found messages that fail verification.
  | 'KEY_MISSING'
  | 'KEY_PERMISSIONS'
  | 'SIGNATURE_INVALID'
  | 'NO_READY_TASK'
  | 'MESSAGE_INVALID'
  // A message over the team's maxMessageBytes (issue 23).
  | 'MESSAGE_TOO_LARGE'
  // A message text whose bytes are not UTF-8 (issue 23): refused, never stored with U+FFFD in their place.
  | 'MESSAGE_NOT_UTF8'
  | 'LOCK_TIMEOUT'
  | 'LOCK_COMPROMISED'
  | 'FILE_CORRUPT'
  | 'FILE_ACCESS'
  | 'STORE_UNHEALTHY'
  | 'STORE_UNAVAILABLE'
  // Issue 21 item 4: a full Redis (maxmemory, noeviction) refuses writes; a team whose keys vanished under a process that had opened it.
  | 'STORE_FULL'
  // Issue 23: the Redis server answered but refused the store URL's login or database (wrong password, no such db).
  | 'STORE_REFUSED'
  | 'TEAM_LOST'
  | 'NOT_SUPPORTED'
  | 'MODEL_ERROR'
  | 'SHUTDOWN_REJECTED'
  | 'TEAMMATE_RUNNING'
  // Issue 21: a reader whose claim was taken over may neither take nor acknowledge; one bridge per (root, team).
  | 'READER_FENCED'
  | 'BRIDGE_RUNNING'

  // Advisory path leases (docs/leases.md): another member holds an overlapping lease; no such lease.
  | 'LEASE_HELD'
  | 'LEASE_NOT_FOUND'
  | 'NAME_TOO_LONG'
  | 'RUN_INCOMPLETE'
  | 'MISSING_CAPABILITY'
  | 'NO_CAPABLE_MEMBER'
  | 'MESSAGE_NOT_FOUND'
  // A msg_id prefix (`message show`) that several messages start with: `details.candidates`.
  | 'MESSAGE_AMBIGUOUS'
  | 'MEMBER_UNREACHABLE'
  | 'WAIT_TIMEOUT'
  // `team send --wait` to a member nothing runs: the message was sent; the wait is refused (core/members/reachability.ts).
  | 'WAIT_UNREACHABLE'
  | 'TMUX_NOT_FOUND'
  | 'INTERNAL';

/** Optional extra data carried by an error, printed by `--json` output. */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/**
 * Base class of every error mailroom throws on purpose.
 * `code` is stable across releases; `message` is for humans; `cause` keeps the underlying error.
 */
export class MailroomError extends Error {
  /** Stable machine-readable code, e.g. `TEAM_NOT_FOUND`. */
  readonly code: ErrorCode;
  /** Structured context (file paths, member lists, ids). */
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: ErrorDetails } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MailroomError';
    this.code = code;
    this.details = options.details ?? {};
  }
}

/**
 * CLI exit code for each error code. Documented in docs/cli.md ("Exit codes").
 * 0 success · 1 internal fault · 2 bad input · 3 not found · 4 conflict with existing state ·
 * 5 refused by a task rule or a tool rule (or a compare-and-set that found the task changed) · 6 lock busy or store
 * unreachable (retry later) · 7 corrupt file on disk, a file or directory
 * that cannot be written (permissions, read-only, disk full), or problems `mailroom doctor` found and did not repair ·
 * 8 a team run ended with tasks not completed · 9 a wait (`team ask`, `team send --wait`) timed out, or
 * (`team send --wait`) ended at once because nothing runs the recipient — the message stays sent either way.
 */
const EXIT_CODES: Readonly<Record<ErrorCode, number>> = {
  USAGE: 2,
  INVALID_NAME: 2,
  INVALID_ARGUMENT: 2,
  MESSAGE_INVALID: 2,
  MESSAGE_TOO_LARGE: 2,
  MESSAGE_NOT_UTF8: 2,
  NOT_SUPPORTED: 2,
  TEAM_AMBIGUOUS: 2,
  TEAM_NOT_FOUND: 3,
  MEMBER_NOT_FOUND: 3,
  TASK_NOT_FOUND: 3,
  REQUEST_NOT_FOUND: 3,
  NO_READY_TASK: 3,
  TEAM_EXISTS: 4,
  MEMBER_EXISTS: 4,
  TEAM_ACTIVE: 4,
  SHUTDOWN_REJECTED: 4,
  TEAMMATE_RUNNING: 4,
  // Issue 21 (acknowledged hand-out, one bridge per team): conflicts with the live holder.
  READER_FENCED: 4,
  BRIDGE_RUNNING: 4,
  KEY_REUSED: 4,

  LEASE_HELD: 4,
  LEASE_NOT_FOUND: 3,
  NAME_TOO_LONG: 2,
  TASK_BLOCKED: 5,
  TASK_CYCLE: 5,
  TASK_ALREADY_CLAIMED: 5,
  TASK_ALREADY_RESOLVED: 5,
  TASK_CONFLICT: 5,
  TASK_FENCED: 5,
  AGENT_BUSY: 5,
  NOT_PERMITTED: 5,
  // Signed teams (issue 22)
  KEY_MISSING: 3,
  KEY_PERMISSIONS: 7,
  SIGNATURE_INVALID: 5,
  LOCK_TIMEOUT: 6,
  // The team kept changing under a send: nothing was stored; retry.
  VIEW_MOVED: 6,
  LOCK_COMPROMISED: 6,
  STORE_UNAVAILABLE: 6,
  FILE_CORRUPT: 7,
  FILE_ACCESS: 7,
  STORE_UNHEALTHY: 7,
  // Issue 21 item 4: both need the operator (memory, durability settings), not a plain retry.
  STORE_FULL: 7,
  // Issue 23: a store URL the server refuses (password, user, database) is bad input, not a retry.
  STORE_REFUSED: 2,
  TEAM_LOST: 7,
  RUN_INCOMPLETE: 8,
  MISSING_CAPABILITY: 5,
  NO_CAPABLE_MEMBER: 3,
  MESSAGE_NOT_FOUND: 3,
  MESSAGE_AMBIGUOUS: 2,
  MEMBER_UNREACHABLE: 4,
  WAIT_TIMEOUT: 9,
  // Like a timeout, the message stays sent; only the wait ended (at once: nobody runs its recipient).
  WAIT_UNREACHABLE: 9,
  TMUX_NOT_FOUND: 3,
  MODEL_ERROR: 1,
  INTERNAL: 1,
};

/** Maps any thrown value to a process exit code (1 for errors that are not {@link MailroomError}). */
export function exitCodeFor(err: unknown): number {
  return err instanceof MailroomError ? EXIT_CODES[err.code] : 1;
}

/**
 * Exit code of `mailroom lease hook` (a Claude Code PreToolUse hook command, docs/leases.md): in
 * Claude Code exit 2 BLOCKS the tool call, any other non-zero exit is a non-blocking error shown to
 * the user. So only LEASE_HELD (a path another member holds) is 2; every other error is 1.
 */
export function hookExitCodeFor(err: unknown): number {
  return isMailroomError(err, 'LEASE_HELD') ? 2 : 1;
}

/** True when `value` is one of the {@link ErrorCode}s (e.g. read back from a child process's stderr). */
export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(EXIT_CODES, value);
}

/** True when `err` is a {@link MailroomError} with the given code. */
export function isMailroomError(err: unknown, code?: ErrorCode): err is MailroomError {
  return err instanceof MailroomError && (code === undefined || err.code === code);
}

/** True when `err` is a Node.js system error with the given `code` (e.g. `ENOENT`). */
export function isErrno(err: unknown, code: string): err is NodeJS.ErrnoException {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === code;
}

const ACCESS_ERRNOS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is a file, not a directory',
};

/**
 * Turns a file system error that the user can fix (permissions, read-only file system, full disk, a
 * file where a directory belongs)
 * into FILE_ACCESS naming the path and the fix; any other value is returned unchanged. Used at the
 * error boundaries (CLI, MCP tool results), so such errors are not reported as INTERNAL faults.
 */
export function fromSystemError(err: unknown): unknown {
  if (err instanceof MailroomError || typeof err !== 'object' || err === null) return err;
  const e = err as NodeJS.ErrnoException;
  const what = e.code ? ACCESS_ERRNOS[e.code] : undefined;
  if (!what) return err;
  const path = e.path ?? '(unknown path)';
  const fix =
    e.code === 'ENOSPC' || e.code === 'EDQUOT'
      ? 'Free some space'
      : e.code === 'ENOTDIR'
        ? 'Check the store root (--root, $MAILROOM_ROOT) and that no file stands where a directory belongs'
        : 'Give this user read and write access to it and to its directory (chmod u+rwX, or chown)';
  return new MailroomError('FILE_ACCESS', `Cannot ${e.syscall ?? 'access'} ${path}: ${what}. ${fix}, then retry.`, { cause: err, details: { path, errno: e.code } });
}

/**
 * The error for a write of `path` that failed with `err`: any file system error (disk full, quota,
 * permissions, I/O) becomes FILE_ACCESS naming `path` and saying the file was left unchanged; a
 * {@link MailroomError} or a value that is no system error is returned as it is. Used by the write
 * primitive (src/store/fs/atomic-write.ts), whose file-handle errors carry no path of their own;
 * appenders pass their own `after` sentence (an append may have left a torn last line).
 */
export function fileWriteError(path: string, err: unknown, after = 'The file was left as it was (nothing half-written).'): unknown {
  if (err instanceof MailroomError || typeof err !== 'object' || err === null) return err;
  const e = err as NodeJS.ErrnoException;
  if (typeof e.code !== 'string') return err;
  const known = fromSystemError({ code: e.code, syscall: 'write', path });
  const head = known instanceof MailroomError ? known.message : `Cannot write ${path}: ${e.message}.`;
  return new MailroomError('FILE_ACCESS', `${head} ${after}`, { cause: err, details: { path, errno: e.code } });
}
