/**
 * Turning a team file into a team on disk: the team (its lead is `mailroom run` itself), each
 * member registered in-process with its model and spawn prompt, and the tasks in file order with
 * their dependencies and commands (in `metadata`).
 */
import { createTeam } from '../../core/teams/team-lifecycle.js';
import { spawnMember } from '../../core/members/spawn.js';
import { parseCapabilities, REQUIRES_KEY } from '../../domain/capabilities.js';
import { addTask } from '../../core/tasks/board.js';
import type { StoreRef } from '../../core/context.js';
import { parseModelSpec } from '../models/index.js';
import type { LoadedTeamFile, TaskSpec } from './team-file.js';

/** Lead model id recorded in config.json for teams that `mailroom run` leads. */
export const RUN_LEAD_MODEL = 'mailroom-run';

/** Input of {@link setUpTeam}. */
export interface SetUpOptions {
  store: StoreRef;
  loaded: LoadedTeamFile;
  /** Team name (default: the file's `team`). */
  team: string;
  /** Absolute work directory of every member. */
  workdir: string;
  /** The file's members with the model each runs, from {@link resolveMembers} (same order as the file). */
  members: readonly SetUpMember[];
}

/** A member as set up: its name and model spec. */
export interface SetUpMember {
  name: string;
  model: string;
}

/**
 * Each member of the file with the model spec it runs on: `model` (the `--model` override), else
 * its own, else the file's, else the worker. Writes nothing. @throws INVALID_ARGUMENT (a bad spec)
 */
export function resolveMembers(loaded: LoadedTeamFile, model: string | undefined): SetUpMember[] {
  const { file } = loaded;
  const members = file.members.map((m) => ({ name: m.name, model: model ?? m.model ?? file.model ?? 'worker' }));
  for (const m of members) parseModelSpec(m.model);
  return members;
}

/**
 * Creates the team, members and tasks. Call it only once everything that can be checked has been
 * (the members' models created, the work directory made): a failure here leaves a partial team.
 * @throws TEAM_EXISTS, INVALID_NAME, INVALID_ARGUMENT (model)
 */
export async function setUpTeam(o: SetUpOptions): Promise<void> {
  const { file } = o.loaded;
  const root = o.store;
  const models = new Map(o.members.map((m) => [m.name, m.model]));
  const members = file.members.map((m) => ({ ...m, model: models.get(m.name)! }));
  await createTeam({ root, team: o.team, description: file.description, cwd: o.workdir, leadModel: RUN_LEAD_MODEL });
  for (const m of members) {
    await spawnMember({ root, team: o.team, name: m.name, model: m.model, type: m.type, color: m.color, prompt: m.prompt ?? defaultPrompt(o.team), backend: 'in-process', cwd: o.workdir, capabilities: listOf(m.capabilities), approve: [...new Set([...file.approve, ...(m.approve ?? [])])] });
  }
  const ids = new Map<string, string>();
  for (const spec of file.tasks) {
    const task = await addTask({ root, team: o.team, subject: spec.subject, description: spec.description, activeForm: spec.activeForm, owner: spec.owner, blockedBy: spec.blockedBy.map((k) => ids.get(k)!), metadata: metadataOf(spec, o) });
    if (spec.key !== undefined) ids.set(spec.key, task.id);
  }
}

/**
 * `mailroom run --resume` of a team that exists (a run that already ran, or was interrupted): the
 * team, its tasks and its inboxes are kept; every member of the file no longer in the roster (it
 * left at the end of the earlier run) is registered again, with its prompt. Nothing else is written.
 * @returns the names registered again
 * @throws INVALID_NAME, INVALID_ARGUMENT (model)
 */
export async function rejoinTeam(o: SetUpOptions): Promise<string[]> {
  const { file } = o.loaded;
  const root = o.store;
  const models = new Map(o.members.map((m) => [m.name, m.model]));
  const roster = new Set((await root.team.readConfig(o.team)).members.map((m) => m.name));
  const added: string[] = [];
  for (const m of file.members) {
    if (roster.has(m.name)) continue;
    await spawnMember({ root, team: o.team, name: m.name, model: models.get(m.name)!, type: m.type, color: m.color, prompt: m.prompt ?? defaultPrompt(o.team), backend: 'in-process', cwd: o.workdir });
    added.push(m.name);
  }
  return added;
}

function metadataOf(spec: TaskSpec, o: SetUpOptions): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  if (spec.key !== undefined) meta.key = spec.key;
  if (spec.command !== undefined) {
    meta.command = spec.command;
    meta.env = { ...o.loaded.file.env, MAILROOM_TEAM_FILE_DIR: o.loaded.dir };
  }
  if (spec.timeoutMs !== undefined) meta.timeoutMs = spec.timeoutMs;
  if (spec.outputs.length > 0) meta.outputs = spec.outputs;
  const requires = parseCapabilities(listOf(spec.requires), 'requires');
  if (requires.length > 0) meta[REQUIRES_KEY] = requires;
  return meta;
}

function listOf(value: string | readonly string[] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : value;
}

function defaultPrompt(team: string): string {
  return `You are part of team "${team}". Work through the task board: claim ready tasks, run their commands with RunTaskCommand, mark them completed, and report each result to the lead with SendMessage.`;
}
