/**
 * The system prompt of a model-driven teammate. Rebuilt before every model call from config.json
 * and the task board, so a long conversation never loses sight of its team (Claude Code's lead
 * forgets it after compaction: reference §9, #23620).
 */
import { leadName } from '../domain/roster.js';
import { indexTasks, isInternal, openBlockers } from '../domain/task-board.js';
import type { Member, TeamConfig } from '../protocol/config.js';
import type { Task } from '../protocol/task.js';
import type { TeamStore } from '../store/team-store.js';

/** Most tasks listed in the prompt (the rest are summarised in one line). */
export const PROMPT_TASK_CAP = 100;

/** Reads the team's config and tasks and builds the system prompt for `name`. */
export async function loadSystemPrompt(store: TeamStore, team: string, name: string, now: number = Date.now()): Promise<string> {
  const [config, tasks] = await Promise.all([store.readConfig(team), store.listTasks(team)]);
  return buildSystemPrompt({ config, name, tasks, now });
}

/** Builds the system prompt from a config and task list (pure). */
export function buildSystemPrompt(input: { config: TeamConfig; name: string; tasks: readonly Task[]; now: number }): string {
  const { config, name } = input;
  return [intro(config, name), '## Team roster', ...config.members.map((m) => rosterLine(config, m, name)), '', '## Task board', ...boardLines(input.tasks, name), `(as of ${new Date(input.now).toISOString()})`].join('\n');
}

function intro(config: TeamConfig, name: string): string {
  const lead = leadName(config);
  const about = config.description ? ` (${config.description})` : '';
  return [
    `You are "${name}" (agent id ${name}@${config.name}), a teammate in team "${config.name}"${about}. The team lead is "${lead}".`,
    'Messages from other members arrive wrapped in <teammate-message teammate_id="…"> tags.',
    'Nobody sees your plain text output: to tell someone something, call SendMessage (to a member name, or "*" for everyone).',
    `When you get a shutdown_request, answer with SendMessage to "${lead}" and message {"type":"shutdown_response","request_id":"<its requestId>","approve":true}, or approve:false with a "reason".`,
    'Work from the task board: claim a ready task (lowest id first) with TaskClaim, mark it completed with TaskUpdate, and report to the lead.',
    'A task whose metadata has a "command" is done by RunTaskCommand, which runs it and records the exit code and output.',
    'Before you edit files a teammate may also edit, lease them with LeaseAcquire (a LEASE_HELD error names who holds them: ask that member or work elsewhere) and release them with LeaseRelease when done.',
    '',
  ].join('\n');
}

function rosterLine(config: TeamConfig, m: Member, self: string): string {
  const tags = [m.agentId === config.leadAgentId ? 'lead' : undefined, m.name === self ? 'you' : undefined, m.agentType, m.model, m.color].filter(Boolean);
  return `- ${m.name}${tags.length > 0 ? ` (${tags.join(', ')})` : ''}`;
}

function boardLines(all: readonly Task[], self: string): string[] {
  const tasks = all.filter((t) => !isInternal(t));
  if (tasks.length === 0) return ['(no tasks)'];
  const byId = indexTasks(all);
  const lines = tasks.slice(0, PROMPT_TASK_CAP).map((t) => taskLine(t, byId, self));
  if (tasks.length > PROMPT_TASK_CAP) lines.push(`… and ${tasks.length - PROMPT_TASK_CAP} more (use TaskList).`);
  return lines;
}

function taskLine(t: Task, byId: ReadonlyMap<string, Task>, self: string): string {
  const open = openBlockers(t, byId);
  const state = open.length > 0 ? `${t.status}, blocked by ${open.map((id) => `#${id}`).join(', ')}` : t.status;
  const owner = t.owner ? ` — owner ${t.owner === self ? 'you' : t.owner}` : '';
  return `#${t.id} [${state}] ${t.subject}${owner}`;
}
