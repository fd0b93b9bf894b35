/**
 * The owner's side of fencing tokens (issue 21 item 2; src/domain/task-fence.ts has the rule, the
 * store applies it). A runtime or MCP session keeps the token each of its claims returned
 * ({@link HeldClaims}); every write it makes about such a task carries it. When the store refuses
 * one (TASK_FENCED: the member was swept as dead while frozen, or the task was reassigned), the
 * member tells the lead once per lost claim ({@link reportLostTask}) and never writes about the
 * task again under that token. Writes by the lead or a person at the CLI carry no token.
 */
import { leadName } from '../../domain/roster.js';
import { isMailroomError, type MailroomError } from '../../errors.js';
import { teamOf, type TeamOptions } from '../context.js';
import { sendMessage } from '../messages/send.js';

/** The fencing tokens one member's process holds, by task id, and the losses already told. */
export class HeldClaims {
  private readonly tokens = new Map<string, number>();
  private readonly told = new Set<string>();

  /** Keeps `token` for task `id` (a claim of this process issued it). */
  hold(id: string, token: number | undefined): void {
    if (token !== undefined) this.tokens.set(id, token);
  }

  /** The token this process holds for task `id`, if it claimed it. */
  tokenOf(id: string): number | undefined {
    return this.tokens.get(id);
  }

  /** True the first time the claim (`id`, `token`) is reported lost; false after. */
  firstLoss(id: string, token: number): boolean {
    const key = `${id}:${token}`;
    if (this.told.has(key)) return false;
    this.told.add(key);
    return true;
  }
}

/** Input of {@link reportLostTask}. */
export interface LostTaskOptions extends TeamOptions {
  /** The member that lost the task. */
  member: string;
  /** The store's TASK_FENCED refusal. */
  error: MailroomError;
  /** What the refused write was, for the lead (e.g. "its RunTaskCommand result"). */
  what: string;
  /** Where this process keeps its claims: the lead is told once per lost claim. */
  claims: HeldClaims;
}

/**
 * Tells the lead, once per lost claim, that `member` lost a task and that its write was not
 * recorded. Best effort (a failed send is not retried). @returns true when it sent the message
 */
export async function reportLostTask(options: LostTaskOptions): Promise<boolean> {
  const { error, member } = options;
  if (!isMailroomError(error, 'TASK_FENCED')) return false;
  const id = String(error.details.id ?? '');
  const token = Number(error.details.token);
  if (!options.claims.firstLoss(id, token)) return false;
  const owner = typeof error.details.owner === 'string' ? error.details.owner : undefined;
  const lead = leadName(await teamOf(options).readConfig(options.team));
  const now = owner === undefined ? 'it has no owner now' : owner === member ? 'it was claimed again by a newer process of mine' : `${owner} owns it now`;
  const text =
    `I lost task #${id}: I was presumed dead or it was reassigned while I worked on it (${now}). ` +
    `${options.what} was refused and not recorded; the current owner's outcome stands. I have stopped working on it. (Sent by mailroom on ${member}'s behalf.)`;
  await sendMessage({ ...options, from: member, to: lead, text, summary: `${member} lost task #${id}; its write was refused` }).catch(() => undefined);
  return true;
}
