/**
 * Registering teammates the way Claude Code does (2.1.109 snapshot `2-teammate-spawned`): agentId
 * `<name>@<team>`, palette color round-robin (assigned by the store under its lock), joinedAt,
 * tmuxPaneId, subscriptions, model, prompt, planModeRequired, cwd, and backendType for a pane member
 * — with the pane id and backend type saying what the member really is (src/protocol/backend.ts).
 * The spawn prompt becomes the first inbox message from the lead. Starting the teammate is the
 * runtime's job.
 */
import { resolve } from 'node:path';
import { makeIdentity } from '../trust/identity.js';
import { requestEndorsement } from '../trust/request-endorsement.js';
import type { Approvable } from '../../protocol/settings.js';
import { MailroomError, isErrno, isMailroomError } from '../../errors.js';
import { assertValidName } from '../../domain/names.js';
import { buildMember, leadName } from '../../domain/roster.js';
import { MEMBER_RUNTIMES, type MemberRuntime } from '../../protocol/backend.js';
import { parseCapabilities } from '../../domain/capabilities.js';
import { PALETTE, teamKeepsPrompts, type Member } from '../../protocol/config.js';
import { parseModelSpec, type ModelSpec } from '../../protocol/model-spec.js';
import { hostOf, nowOf, opOf, teamOf, type TeamOptions } from '../context.js';
import { sendMessage } from '../messages/send.js';

/**
 * How a registered member runs (src/protocol/backend.ts): `in-process` (inside a mailroom host:
 * `mailroom run`, `mailroom agent`), `process` (its own `mailroom agent` process), `mcp` (an MCP
 * client), `tmux`/`iterm2` (a real terminal pane, with its pane id).
 */
export type BackendType = MemberRuntime;

/** Input of {@link spawnMember}. */
export interface SpawnOptions extends TeamOptions {
  name: string;
  /** agentType (e.g. `general-purpose`). */
  type?: string;
  /**
   * Model spec, e.g. `worker`, `anthropic:claude-sonnet-4-5` (default `worker`): checked with
   * `parseModelSpec` unless {@link SpawnOptions.modelIsLabel} is set.
   */
  model?: string;
  /**
   * The member runs outside mailroom (an MCP client): `model` only describes it (e.g. `unknown`)
   * and is recorded unchecked, since no mailroom runtime creates a model from it.
   */
  modelIsLabel?: boolean;
  /**
   * Spawn prompt: delivered as its first inbox message and kept in its member record; also stored
   * on the config entry where the team's client writes prompts ({@link teamKeepsPrompts}: 2.1.109
   * and mailroom teams, not 2.1.332 ones).
   */
  prompt?: string;
  /** Palette color (default: next in round-robin). */
  color?: string;
  /**
   * How the member runs (default `in-process`). It decides the `tmuxPaneId`/`backendType` recorded
   * in config.json ({@link rosterBackend}): `""` and none, unless it is a tmux/iTerm2 pane with `paneId`.
   */
  backend?: BackendType;
  /** The member's pane id, for the `tmux` and `iterm2` backends only (a tmux `%N`, an iTerm2 session UUID). */
  paneId?: string;
  /** Working directory: must exist; stored absolute (default: this process's). */
  cwd?: string;
  planModeRequired?: boolean;
  /**
   * Side effects the member needs the lead's approval for (`commands`: RunTaskCommand asks with a
   * permission_request and waits); kept in its member record.
   */
  approve?: readonly Approvable[] | undefined;
  /**
   * What it declares it can do (`review`, `csv`; names or comma-separated lists), kept in its
   * member record: tasks with `metadata.requires` and `--to-capability` routing look at it.
   */
  capabilities?: readonly string[];
}

/**
 * Adds a member to the roster with its member record (how it runs, its prompt; docs/format.md
 * "Member records") in one store step, and delivers its prompt. Unread `shutdown_request`s already
 * in its inbox, sent before it joined, were for an earlier member of that name: the store marks
 * them read as it adds the member (docs/runtime.md "Shutdown").
 * @returns the member as written.
 * @throws INVALID_NAME, MEMBER_EXISTS, INVALID_ARGUMENT (an unknown backend; color outside the palette; a model spec
 * whose kind is unknown or whose name is missing, or a `scripted:` one whose script file is not
 * there — checked before anything is written, without creating the model; a cwd that is not an existing directory; a capability that is not a name), TEAM_NOT_FOUND
 */
export async function spawnMember(options: SpawnOptions): Promise<Member> {
  const store = teamOf(options);
  const config = await store.readConfig(options.team);
  // The roster is read first so that a refused name's suggestion is free in this team.
  assertValidName(options.name, 'agent', { taken: config.members.map((m) => m.name) });
  const spec = options.model !== undefined && !options.modelIsLabel ? parseModelSpec(options.model) : undefined;
  if (options.backend !== undefined && !MEMBER_RUNTIMES.includes(options.backend)) {
    throw new MailroomError('INVALID_ARGUMENT', `Backend "${String(options.backend)}" is unknown: use one of ${MEMBER_RUNTIMES.join(', ')}.`);
  }
  if (options.color !== undefined && !(PALETTE as readonly string[]).includes(options.color)) {
    throw new MailroomError('INVALID_ARGUMENT', `Color "${options.color}" is not in the palette: use one of ${PALETTE.join(', ')}.`);
  }
  const cwd = await hostOf(options).requireUserDir(options.cwd ?? process.cwd(), 'working directory (--cwd)');
  const runtime = options.backend ?? 'in-process';
  // A started process (process, tmux backends) runs in the member's cwd, and reads a relative script from there.
  if (spec) await assertScriptThere(options, options.model!, spec, runtime === 'process' || runtime === 'tmux' ? cwd : process.cwd());
  const prompt = teamKeepsPrompts(config) ? options.prompt : undefined;
  const draft = buildMember({ ...options, team: options.team, backend: runtime, prompt, model: options.model ?? 'worker', cwd, joinedAt: nowOf(options) });
  // In a signed team its key pair is made here, where it is spawned (core/trust/identity.ts).
  const identity = await makeIdentity(options, options.name, draft.joinedAt ?? nowOf(options));
  const record = { runtime, prompt: options.prompt, capabilities: parseCapabilities(options.capabilities), approve: options.approve, identity };
  const { value: member } = await store.addMember(options.team, draft, { ...opOf(options), assignColor: true, retireEarlierShutdownRequests: true, record });
  // A name that comes back gets the mail it left unread: unread again, no longer dead letters (issue 23).
  await store.redeliverDeadLetters(options.team, options.name, opOf(options));
  if (identity && identity.cert === undefined) await requestEndorsement(options, options.name, identity.keyId, draft.joinedAt ?? nowOf(options));
  if (options.prompt) {
    await sendMessage({ ...options, from: leadName(await store.readConfig(options.team)), to: options.name, text: options.prompt });
  }
  return member;
}

/**
 * Refuses a `scripted:` model whose script file is not there (or is a directory), naming the file
 * and the fix: otherwise its runtime fails as it starts, far from the `--model` that named it. A
 * relative path is looked up from `base`, the directory the member's runtime will run in.
 * @throws INVALID_ARGUMENT
 */
async function assertScriptThere(options: TeamOptions, model: string, spec: ModelSpec, base: string): Promise<void> {
  if (spec.kind !== 'scripted') return;
  try {
    await hostOf(options).readUserFile(resolve(base, spec.name), 'model script');
  } catch (err) {
    if (!isMailroomError(err, 'INVALID_ARGUMENT')) throw err;
    const path = typeof err.details.path === 'string' ? err.details.path : spec.name;
    const what = isErrno(err.cause, 'EISDIR') ? 'is a directory, not a script' : 'does not exist';
    throw new MailroomError('INVALID_ARGUMENT', `Model "${model}": its script ${path} ${what}. Write the script there (a YAML or JSON list of turns, docs/runtime.md "Models"), or give the path of an existing one (--model scripted:<file>). Nothing was registered.`, {
      cause: err,
      details: { model, path },
    });
  }
}

/**
 * Removes a member from the roster (matched by name or agentId), as Claude Code's lead does on
 * `shutdown_approved`; its open tasks go back to pending with no owner in the same step. The inbox
 * is kept. @returns the removed member, or undefined if absent.
 */
export async function removeMember(options: TeamOptions & { name: string }): Promise<Member | undefined> {
  return (await teamOf(options).removeMember(options.team, options.name, opOf(options)))?.value?.member;
}
