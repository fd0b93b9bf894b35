/**
 * The `command` model: an external program is the model (`command:claude -p`,
 * `command:codex exec -`). Each new user turn is rendered as text — the system prompt (team
 * context) and the wrapped messages — and written to the program's stdin; its stdout is the reply,
 * sent with SendMessage to whoever it answers (the sender of the last message in the turn, else
 * the lead). A shutdown_request is approved without running the program. The program runs through
 * `sh -c` in the teammate's working directory, recorded in the store while it runs (so an orphan of
 * a killed runtime can be reaped).
 */
import { MailroomError } from '../../errors.js';
import { currentTeammate } from '../context.js';
import { runRecordedShell } from '../recorded-shell.js';
import { capTail, runShell, type ShellOptions } from '../shell.js';
import { modelCallAborted } from './abort.js';
import { latestUserTurn, shutdownRequestIn, textsOf, wrappedMessages } from './request-view.js';
import type { ChatMessage, Model, ModelRequest, ModelResponse } from './types.js';
import type { CommandResult } from '../../tools/types.js';

/** Default time a command may take per turn (ms). */
export const COMMAND_TIMEOUT_MS = 600_000;

/** Options of {@link createCommandModel}. */
export interface CommandModelOptions {
  /** Shell command line, e.g. `claude -p`. */
  command: string;
  /** Kill the program after this many ms (default {@link COMMAND_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** Creates the `command:<command>` model. `call` rejects with MODEL_ERROR when the program fails. */
export function createCommandModel(options: CommandModelOptions): Model {
  const id = `command:${options.command}`;
  let calls = 0;
  return {
    id,
    async call(request) {
      const turn = latestUserTurn(request);
      const shutdown = shutdownRequestIn(turn);
      const toolId = `toolu_command_${++calls}`;
      if (shutdown) return send(toolId, { to: shutdown.from, message: { type: 'shutdown_response', request_id: shutdown.requestId, approve: true } });
      if (textsOf(turn).length === 0) return { content: [], stopReason: 'end_turn' };
      const reply = await runProgram(options, id, request);
      if (reply === '') return { content: [], stopReason: 'end_turn' };
      return send(toolId, { to: replyTo(turn, request), summary: firstWords(reply), message: reply });
    },
  };
}

/** The text the program gets on stdin: the team context, then the new turn's text. */
export function renderTurn(request: ModelRequest): string {
  return `${request.system}\n\n${textsOf(latestUserTurn(request)).join('\n\n')}\n`;
}

async function runProgram(options: CommandModelOptions, id: string, request: ModelRequest): Promise<string> {
  const cwd = request.teammate?.cwd ?? currentTeammate()?.cwd ?? process.cwd();
  const result = await run({ command: options.command, cwd, stdin: renderTurn(request), timeoutMs: options.timeoutMs ?? COMMAND_TIMEOUT_MS, signal: request.signal });
  if (result.aborted) throw modelCallAborted(id, request.signal);
  if (result.exitCode === 0) return result.stdout.trim();
  const why = result.spawnError ?? (result.timedOut ? `timed out after ${result.durationMs} ms` : `exited with code ${result.exitCode ?? 'none (killed)'}`);
  throw new MailroomError('MODEL_ERROR', `Model ${id} failed: the program ${why}. ${capTail(result.stderr.trim(), 500) || 'It printed nothing on stderr.'} Check that the command works from a shell in ${cwd}.`, {
    details: { model: id, exitCode: result.exitCode },
  });
}

/** Runs the program, recorded in the store while it runs when called inside a teammate. */
function run(shell: ShellOptions): Promise<CommandResult> {
  const me = currentTeammate();
  return me ? runRecordedShell({ store: me.store, team: me.team, agent: me.name }, shell) : runShell(shell);
}

function replyTo(turn: ChatMessage | undefined, request: ModelRequest): string {
  const self = request.teammate?.name ?? currentTeammate()?.name;
  const senders = wrappedMessages(turn).map((m) => m.from).filter((f) => f !== self);
  return senders[senders.length - 1] ?? request.teammate?.lead ?? currentTeammate()?.lead ?? 'team-lead';
}

function send(id: string, input: Record<string, unknown>): ModelResponse {
  return { content: [{ type: 'tool_use', id, name: 'SendMessage', input }], stopReason: 'tool_use' };
}

function firstWords(text: string): string {
  return text.replace(/\s+/g, ' ').trim().split(' ').slice(0, 8).join(' ');
}
