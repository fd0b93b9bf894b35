/**
 * The record mailroom keeps for a teammate started with the process backend
 * (`mailroom team spawn --backend process`): `teams/<teamDir>/processes/<agent>.json`. It is
 * mailroom's own file (Claude Code never reads it); `mailroom team stop` uses it to find the pid.
 */
import { z } from 'zod';

/** One running (or last started) teammate process. */
export const ProcessRecordSchema = z.looseObject({
  /** Team name (config `name`). */
  team: z.string(),
  /** Member name. */
  agent: z.string(),
  /** OS process id of the detached `mailroom agent` process (leader of its own process group). */
  pid: z.number().int().positive(),
  /** Model spec the process runs, `kind:name` (absent: the member's model). */
  model: z.string().optional(),
  /** Absolute path of the process's log file (stdout and stderr). */
  logFile: z.string(),
  /** Start time, epoch ms. */
  startedAt: z.number(),
  /** The command line, for humans (`node …/mailroom.js agent <name> …`). */
  argv: z.array(z.string()),
});

/** A parsed process record. */
export type ProcessRecord = z.infer<typeof ProcessRecordSchema>;
