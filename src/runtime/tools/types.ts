/**
 * What the runtime's turn loop hands its team tools: the calling teammate, passed explicitly (not
 * via ALS). The tools themselves are the catalogue's (src/tools); ./index.ts adapts them.
 */
import type { Catalogue } from '../../tools/catalogue.js';
import type { SenderView } from '../../core/teams/sender-view.js';
import type { TurnRecord } from '../../tools/types.js';
import type { ToolSpec } from '../models/types.js';
import type { Stores } from '../../store/selection.js';
import type { TeamFeed } from '../../core/live/feed.js';
import type { HeldClaims } from '../../core/tasks/fencing.js';

export type { TurnRecord } from '../../tools/types.js';

/** What a tool may know about the teammate calling it. */
export interface ToolContext {
  /** The stores (pass as `root` to core use cases). */
  store: Stores;
  team: string;
  /** The calling teammate's member name. */
  name: string;
  /** The lead's member name. */
  lead: string;
  /** Working directory for commands. */
  cwd: string;
  signal: AbortSignal;
  /** Notable outcomes, reported back to the turn loop (idle notification, shutdown). */
  record: TurnRecord;
  /** Diagnostic lines (the teammate's log); default: dropped. */
  log?: ((line: string) => void) | undefined;
  /** The catalogue to take tools from (default: the catalogue, `CATALOGUE`). */
  catalogue?: Catalogue | undefined;
  /** The team's feed (the teammate's), for tools that wait (the lead's approval). */
  feed?: TeamFeed | undefined;
  /** The fencing tokens of the tasks this teammate's process claimed (kept across turns). */
  claims?: HeldClaims | undefined;
  /** This teammate's kept view of its team, which its sends go under (one round trip on Redis: core/teams/sender-view.ts). */
  senderView?: SenderView | undefined;
}

/** A tool: its spec and its implementation. `run` returns the text of the tool result. */
export interface TeamTool {
  readonly spec: ToolSpec;
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<string>;
}

/** A tool call whose input does not match the tool's schema. */
export class ToolInputError extends Error {
  constructor(tool: string, issues: string) {
    super(`Invalid input for ${tool}: ${issues}.`);
    this.name = 'ToolInputError';
  }
}
