/**
 * A team's hooks file (docs/approvals.md "Hooks"): the shape of Claude Code's `hooks` settings
 * (event → matcher groups → command hooks, `timeout` in seconds), for the three Agent Teams events
 * mailroom runs: TeammateIdle, TaskCreated, TaskCompleted. Lives on the machine that runs the
 * hooks (host store: `teams/<team>/hooks.json`), never in shared team state: a shared store must
 * not be able to make every machine run a command.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';

/** The hook events mailroom runs, with Claude Code's names. */
export const HOOK_EVENTS = ['TeammateIdle', 'TaskCreated', 'TaskCompleted'] as const;

/** One of {@link HOOK_EVENTS}. */
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Default hook timeout (s), as Claude Code's. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** One command hook: `sh -c command`, the event's JSON on stdin. */
export const CommandHookSchema = lazySchema(() => z.looseObject({
  type: z.literal('command'),
  command: z.string().min(1),
  /** Seconds before the hook is killed (default {@link DEFAULT_HOOK_TIMEOUT_S}). */
  timeout: z.number().positive().optional(),
}));

/** A matcher group (the matcher is ignored for these events, as in Claude Code). */
export const HookGroupSchema = lazySchema(() => z.looseObject({ matcher: z.string().optional(), hooks: z.array(CommandHookSchema) }));

/** The hooks file. Unknown events are kept and ignored. */
export const HooksFileSchema = lazySchema(() => z.looseObject({
  hooks: z.looseObject(Object.fromEntries(HOOK_EVENTS.map((e) => [e, z.array(HookGroupSchema).optional()])) as Record<HookEvent, z.ZodOptional<z.ZodArray<typeof HookGroupSchema>>>),
}));

/** A parsed hooks file. */
export type HooksFile = z.infer<typeof HooksFileSchema>;
/** One command hook. */
export type CommandHook = z.infer<typeof CommandHookSchema>;
