/**
 * Team config (`teams/<team>/config.json`), matching Claude Code 2.1.109 (see
 * ../shared/reference/claude-code-teams.md §2 and the 2.1.109 snapshots). Unknown fields are
 * allowed here and preserved by writers.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/**
 * The eight palette colors Claude Code assigns to teammates (reference §2). Assignment is
 * round-robin by roster position: the lead holds slot 0, so the first teammate is `blue`, as in the
 * Claude Code 2.1.109 snapshots.
 */
export const PALETTE = ['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan'] as const;

/** One of {@link PALETTE}. */
export type PaletteColor = (typeof PALETTE)[number];

/** One roster entry. Required fields follow Claude Code; everything else is optional and kept. */
export const MemberSchema = lazySchema(() => z.looseObject({
  agentId: z.string(),
  name: z.string(),
  agentType: z.string().optional(),
  model: z.string().optional(),
  prompt: z.string().optional(),
  color: z.string().optional(),
  planModeRequired: z.boolean().optional(),
  joinedAt: z.number().optional(),
  tmuxPaneId: z.string().optional(),
  cwd: z.string().optional(),
  subscriptions: z.array(z.unknown()).optional(),
  backendType: z.string().optional(),
  isActive: z.boolean().optional(),
  mode: z.string().optional(),
  worktreePath: z.string().optional(),
}));

/** A team member as stored in config.json. */
export type Member = z.infer<typeof MemberSchema>;

/** The whole config.json of a team. */
export const TeamConfigSchema = lazySchema(() => z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  createdAt: z.number(),
  leadAgentId: z.string(),
  leadSessionId: z.string().optional(),
  members: z.array(MemberSchema),
  hiddenPaneIds: z.array(z.string()).optional(),
  teamAllowedPaths: z.array(z.unknown()).optional(),
  leadProcess: z.unknown().optional(),
}));

/** A parsed team config. Unknown keys survive a read-modify-write. */
export type TeamConfig = z.infer<typeof TeamConfigSchema>;

/**
 * True when the team's client writes its teammates' spawn `prompt` into config.json, so mailroom
 * does too: Claude Code 2.1.109 does (its snapshot 2), 2.1.332 does not (its snapshot 2: a teammate
 * without `prompt`). A config with 2.1.332's marks — `leadProcess` (2.1.332 only, reference §2) or
 * a lead on pane `leader` — is a 2.1.332 team; any other (2.1.109's, mailroom's own) keeps prompts.
 * mailroom keeps every prompt in its member record either way (src/protocol/member-record.ts).
 */
export function teamKeepsPrompts(config: TeamConfig): boolean {
  return !hasSessionLead(config);
}

/**
 * True when the config was written by a Claude Code 2.1.332 session lead: it has `leadProcess`
 * (2.1.332 only, reference §2), or its lead sits on pane `leader` (2.1.332 snapshots 1–5).
 */
export function hasSessionLead(config: TeamConfig): boolean {
  if (config.leadProcess !== undefined) return true;
  return config.members.find((m) => m.agentId === config.leadAgentId)?.tmuxPaneId === 'leader';
}
