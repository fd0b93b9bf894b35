/**
 * The team file of `mailroom run` (YAML or JSON): a team, its members (model and prompt each), and
 * its tasks with dependencies and shell commands. Task `key`s name tasks for `blockedBy`; a task may
 * only depend on tasks listed before it. See docs/runtime.md "Team files".
 */
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { MailroomError } from '../../errors.js';
import { PALETTE } from '../../protocol/config.js';
import { APPROVABLE } from '../../protocol/settings.js';
import type { Stores } from '../../store/selection.js';
import { LEAD_NAME, assertValidName } from '../../domain/names.js';
import { parseCapabilities } from '../../domain/capabilities.js';

const MemberSpecSchema = z.object({
  name: z.string(),
  /** `kind:name` (default: the file's `model`, else worker). */
  model: z.string().optional(),
  prompt: z.string().optional(),
  type: z.string().optional(),
  color: z.string().optional(),
  /** Side effects this member needs the lead's approval for (added to the file's `approve`). */
  approve: z.array(z.enum(APPROVABLE)).optional(),
  /** What it can do (`[review, csv]` or `"review,csv"`), kept in its member record. */
  capabilities: z.union([z.string(), z.array(z.string())]).optional(),
}).strict();

const TaskSpecSchema = z.object({
  key: z.string().optional(),
  subject: z.string(),
  description: z.string().optional(),
  activeForm: z.string().optional(),
  /** Shell command, run by RunTaskCommand in the work directory. */
  command: z.string().optional(),
  timeoutMs: z.number().int().positive().optional(),
  /** Keys of tasks that must complete first. */
  blockedBy: z.array(z.string()).default([]),
  owner: z.string().optional(),
  /** Files (relative to the work directory) the task produces, listed in the run report. */
  outputs: z.array(z.string()).default([]),
  /** Capabilities its claimant must declare (stored as `metadata.requires`). */
  requires: z.union([z.string(), z.array(z.string())]).optional(),
}).strict();

/** A parsed team file. */
export const TeamFileSchema = z.object({
  team: z.string(),
  description: z.string().optional(),
  /** Default model of the members. */
  model: z.string().optional(),
  /** Work directory of the members, relative to the team file (default: the current directory). */
  workdir: z.string().optional(),
  /** Extra environment of every task command. */
  env: z.record(z.string(), z.string()).default({}),
  /** Side effects every member needs the lead's approval for (`commands`: each task command; `mailroom approve`/`deny`). */
  approve: z.array(z.enum(APPROVABLE)).default([]),
  members: z.array(MemberSpecSchema).min(1),
  tasks: z.array(TaskSpecSchema).default([]),
}).strict(); // an unknown key is refused: a misspelled one (`blockedby`) would silently be dropped

/** A parsed team file (see {@link TeamFileSchema}). */
export type TeamFile = z.output<typeof TeamFileSchema>;
/** One task of a team file. */
export type TaskSpec = TeamFile['tasks'][number];

/** A loaded team file and where it lives. */
export interface LoadedTeamFile {
  file: TeamFile;
  /** Absolute path of the file. */
  path: string;
  /** Its directory (relative paths in the file are resolved against it). */
  dir: string;
}

/**
 * Reads and validates a team file: its format (unknown keys refused), member names and colors,
 * task owners, and task keys; the file is read through `stores.host` (a file the user names).
 * @throws INVALID_ARGUMENT naming the first problem, INVALID_NAME
 */
export async function loadTeamFile(path: string, stores: Stores): Promise<LoadedTeamFile> {
  const abs = resolve(path);
  let raw: unknown;
  try {
    raw = parseYaml(await stores.host.readUserFile(abs, 'team file'));
  } catch (err) {
    if (err instanceof MailroomError) throw err;
    // The YAML library's message ends in a code frame (blank lines, the line, a caret): its first line names the problem and the position.
    const message = err instanceof Error ? err.message : String(err);
    throw invalid(abs, (message.split('\n', 1)[0] ?? message).replace(/:\s*$/, ''));
  }
  const parsed = TeamFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(abs, `${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}`);
  }
  checkMembers(abs, parsed.data);
  checkKeys(abs, parsed.data.tasks);
  return { file: parsed.data, path: abs, dir: dirname(abs) };
}

/** Member names, colors and task owners, checked before anything is created. @throws INVALID_NAME, INVALID_ARGUMENT */
function checkMembers(path: string, file: TeamFile): void {
  const names = new Set<string>();
  file.members.forEach((m, i) => {
    assertValidName(m.name, 'agent');
    if (names.has(m.name)) throw invalid(path, `members.${i}: name "${m.name}" is used twice`);
    names.add(m.name);
    if (m.color !== undefined && !(PALETTE as readonly string[]).includes(m.color)) throw invalid(path, `members.${i}: color "${m.color}" is not one of ${PALETTE.join(', ')}`);
    checkCapabilities(path, `members.${i}.capabilities`, m.capabilities);
  });
  file.tasks.forEach((t, i) => {
    checkCapabilities(path, `tasks.${i}.requires`, t.requires);
    if (t.owner !== undefined && t.owner !== LEAD_NAME && !names.has(t.owner)) throw invalid(path, `tasks.${i} ("${t.subject}") is owned by "${t.owner}", who is not a member`);
  });
}

function checkCapabilities(path: string, where: string, value: string | readonly string[] | undefined): void {
  try {
    parseCapabilities(value === undefined ? [] : typeof value === 'string' ? [value] : value, where);
  } catch (err) {
    throw invalid(path, (err as Error).message.replace(/\.$/, ''));
  }
}

function checkKeys(path: string, tasks: readonly TaskSpec[]): void {
  const seen = new Set<string>();
  tasks.forEach((t, i) => {
    for (const b of t.blockedBy) if (!seen.has(b)) throw invalid(path, `tasks.${i} ("${t.subject}") is blocked by "${b}", which is not the key of an earlier task`);
    if (t.key !== undefined) {
      if (seen.has(t.key)) throw invalid(path, `tasks.${i}: key "${t.key}" is used twice`);
      seen.add(t.key);
    }
  });
}

function invalid(path: string, what: string): MailroomError {
  return new MailroomError('INVALID_ARGUMENT', `Team file ${path} is invalid: ${what}. See docs/runtime.md "Team files".`, { details: { path } });
}
