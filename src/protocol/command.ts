/**
 * The record mailroom keeps while a teammate's shell command runs (a task's `metadata.command`,
 * or the program behind a `command:` model): `<root>/mailroom/commands/<team>/<pid>.json`. It is
 * mailroom's own file, outside every directory Claude Code reads or deletes, and it outlives the
 * team (a team deleted while a command runs still has its command reaped). Written when the command
 * starts and removed when it ends; one left behind by a runtime that died (SIGKILL, OOM killer)
 * lets the next runtime of the team, or `mailroom doctor --fix`, stop the orphaned command
 * (docs/runtime.md "Orphaned commands").
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** A process, named so that a later reuse of its pid is told apart. */
export const ProcessIdentitySchema = lazySchema(() => z.looseObject({
  /** OS process id. */
  pid: z.number().int().positive(),
  /**
   * Start time from `/proc/<pid>/stat` field 22 (clock ticks after boot). Absent when it could not
   * be read (not Linux): such a process is never signalled by a reaper.
   */
  startTime: z.number().int().nonnegative().optional(),
}));

/** A parsed {@link ProcessIdentitySchema}. */
export type ProcessIdentity = z.infer<typeof ProcessIdentitySchema>;

/**
 * One running command of a teammate. Its `pid` is never 1 (a command is a child of its runtime;
 * pid 1 is init, and a process group 1 does not exist: `kill(-1)` signals every process), and its
 * `pgid` equals its `pid`; a record that says otherwise was not written by mailroom and is never acted on.
 */
export const CommandRecordSchema = lazySchema(() => z
  .looseObject({
    /** Team name (config `name`). */
    team: z.string(),
    /** Member name of the teammate that runs it. */
    agent: z.string(),
    /** The task whose `metadata.command` it is; absent for a `command:` model's program. */
    taskId: z.string().optional(),
    /** The shell command line (run with `sh -c`), for humans. */
    command: z.string(),
    /** The `sh -c` process: started detached, so it leads its own process group ({@link pgid}). */
    pid: z.number().int().min(2),
    /** Its process group id (equal to `pid`); the group is what a reaper signals. */
    pgid: z.number().int().positive(),
    /** Start time of `pid` (see {@link ProcessIdentitySchema}); absent: never signalled by a reaper. */
    startTime: z.number().int().nonnegative().optional(),
    /** When it started, epoch ms. */
    startedAt: z.number(),
    /** The runtime process that started it (`mailroom run`, `mailroom agent`, a library host). */
    owner: ProcessIdentitySchema,
  })
  .refine((r) => r.pgid === r.pid, { message: 'pgid must equal pid (the command leads its own process group)', path: ['pgid'] }));

/** A parsed command record. */
export type CommandRecord = z.infer<typeof CommandRecordSchema>;
