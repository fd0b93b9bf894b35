/**
 * The record mailroom keeps for a teammate that runs as its own `mailroom agent <name>` process —
 * started detached by the process backend (`mailroom team spawn --backend process`) or in the
 * foreground by a user: `teams/<teamDir>/processes/<agent>.json`. It is mailroom's own file (Claude
 * Code never reads it). A second runtime for the member is refused while the recorded process is
 * alive; `mailroom team stop` uses it to find the pid.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** One running (or last started) teammate process. */
export const ProcessRecordSchema = lazySchema(() => z.looseObject({
  /** Team name (config `name`). */
  team: z.string(),
  /** Member name. */
  agent: z.string(),
  /**
   * OS process id of the `mailroom agent` process (a detached one leads its own process group;
   * a foreground one is wherever its shell put it).
   */
  pid: z.number().int().positive(),
  /**
   * Its start time, `/proc/<pid>/stat` field 22 (clock ticks after boot): a live pid with another
   * start time is a different process, so the record is stale. Absent in records written before
   * it existed or where `/proc` cannot be read: then the pid alone decides.
   */
  startTime: z.number().int().nonnegative().optional(),
  /** Model spec the process runs, `kind:name` (absent: the member's model). */
  model: z.string().optional(),
  /** Absolute path of the process's log file (stdout and stderr); absent for a foreground agent. */
  logFile: z.string().optional(),
  /** Start time, epoch ms. */
  startedAt: z.number(),
  /** The command line, for humans (`node …/mailroom.js agent <name> …`). */
  argv: z.array(z.string()),
}));

/** A parsed process record. */
export type ProcessRecord = z.infer<typeof ProcessRecordSchema>;
