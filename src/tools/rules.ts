/**
 * Rules: the one place where enablement, policy (who may do what) and approval requirements are
 * enforced, for every surface. A rule sits on one catalogue entry (`rules` of its definition) or
 * on the whole catalogue (`CATALOGUE_RULES`, or `Catalogue.withRules('*', …)`); the catalogue's
 * gate runs them before the handler, whichever surface made the call, so a rule is added once.
 */
import { MailroomError, type ErrorDetails } from '../errors.js';
import type { Surface, ToolContext, ToolScope } from './types.js';

/** One call as the rules see it, after its input was validated. */
export interface ToolCall {
  /** Catalogue id of the tool, e.g. `task_update`. */
  readonly tool: string;
  /** The tool's name on the calling surface, e.g. `TaskUpdate` (for messages). */
  readonly name: string;
  readonly surface: Surface;
  /** The validated input with the catalogue's (canonical, camelCase) argument names, whatever the surface called them. */
  readonly input: Readonly<Record<string, unknown>>;
  readonly ctx: ToolContext;
  /** The call this one runs inside (e.g. `broadcast` inside `send_message` to "*"), if any. */
  readonly parent?: ToolCall | undefined;
}

/**
 * A rule. Both hooks are optional.
 * - `enabled`: whether the tool is offered at all to this member on this surface (default yes). A
 *   tool that is not enabled is left out of the runtime's tool specs and registered disabled on
 *   the MCP server (not listed); a call to it anyway is refused with NOT_PERMITTED. Runs when the
 *   surface lists its tools (runtime: before every model request; MCP: when the server starts)
 *   and again at every call. Keep it synchronous and cheap.
 * - `check`: runs before the handler, after validation, with the canonical input. Throw to refuse
 *   (use {@link notPermitted}); await to hold the call (e.g. until the lead approves: wait with
 *   `call.ctx.signal`). Returning lets the call proceed.
 */
export interface ToolRule {
  /** Stable name, reported in refusals (`details.rule`). */
  readonly name: string;
  enabled?(scope: ToolScope): boolean;
  check?(call: ToolCall): void | Promise<void>;
}

/** A NOT_PERMITTED refusal by `rule`, with `details.rule` and `details.tool` set. */
export function notPermitted(rule: string, call: Pick<ToolCall, 'tool'>, message: string, details: ErrorDetails = {}): MailroomError {
  return new MailroomError('NOT_PERMITTED', `${message} (rule: ${rule})`, { details: { ...details, rule, tool: call.tool } });
}
