/**
 * A catalogue entry: one tool, defined once — its name on each surface (Claude Code's for the
 * runtime, snake_case for MCP), one description, ONE zod input schema with canonical (camelCase)
 * argument names, ONE handler, its rules, and how each surface shows its result. Surfaces only
 * adapt: they derive their argument names and JSON schema from the entry (./naming.ts) and run
 * every call through the catalogue's gate (./catalogue.ts).
 */
import type { z } from 'zod';
import { MailroomError } from '../errors.js';
import type { ToolCall, ToolRule } from './rules.js';
import type { ServiceName, Surface, ToolContext, ToolServices } from './types.js';

/** What a description may depend on. */
export interface DescribeScope {
  readonly surface: Surface;
  /** The member the surface acts as, when known (MCP: always; runtime specs built for no one: not). */
  readonly member?: string | undefined;
  /** A tool's name on this surface (by catalogue id), or undefined if it is not exposed here. */
  tool(id: string): string | undefined;
  /** This entry's argument `key` (canonical name) as this surface spells it. */
  arg(key: string): string;
}

/** Behaviour hints (MCP tool annotations: `readOnlyHint`, `destructiveHint`, `idempotentHint`). */
export interface ToolHints {
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
}

/** What a handler gets: the surface's context, this call, and a way to run another entry through the gate. */
export interface ToolCallContext extends ToolContext {
  readonly call: ToolCall;
  /**
   * Runs `entry` as part of this call, through the same gate: its rules apply as if it had been
   * called directly (e.g. `send_message` to "*" runs `broadcast`). `input` uses canonical names.
   * Only entries the caller lists in `invokes` may be run (INTERNAL otherwise).
   */
  invoke<S extends z.ZodObject, R>(entry: ToolEntry<S, R>, input: z.input<S>): Promise<R>;
}

/** How a surface shows an entry's result (default: the result itself). */
export interface ToolViews<I, R> {
  /** The runtime's tool result: a string as is, anything else as JSON. */
  runtime?(result: R, input: I, ctx: ToolContext): unknown;
  /** The MCP result's data (`structuredContent` and pretty text); throw to answer with an error. */
  mcp?(result: R, input: I, ctx: ToolContext): Record<string, unknown>;
}

/** One tool of the catalogue. Build it with {@link defineTool}. */
export interface ToolEntry<S extends z.ZodObject = z.ZodObject, R = unknown> {
  /** Stable catalogue id (snake_case; the MCP name where it has one), used by rules and logs. */
  readonly id: string;
  /** The tool's name on each surface that exposes it; a surface without a name does not. */
  readonly names: Readonly<Partial<Record<Surface, string>>>;
  /** The input schema, with canonical (camelCase) argument names. */
  readonly input: S;
  /** Per-surface argument names that differ from the default (runtime: canonical; MCP: snake_case). */
  readonly args: Readonly<Partial<Record<Surface, Readonly<Record<string, string>>>>>;
  /** Services the handler needs from the surface. */
  readonly requires: readonly ServiceName[];
  /** This entry's own rules (after the catalogue-wide ones). */
  readonly rules: readonly ToolRule[];
  /** Ids of the entries its handler may run with `ctx.invoke` (their rules apply too). */
  readonly invokes: readonly string[];
  readonly hints: ToolHints;
  describe(scope: DescribeScope): string;
  run(input: z.output<S>, ctx: ToolCallContext): Promise<R>;
  readonly views: ToolViews<z.output<S>, R>;
}

/** Input of {@link defineTool}. */
export interface ToolDefinition<S extends z.ZodObject, R> {
  id: string;
  names: Partial<Record<Surface, string>>;
  description: string | ((scope: DescribeScope) => string);
  input: S;
  args?: Partial<Record<Surface, { readonly [K in keyof z.output<S>]?: string }>>;
  requires?: readonly ServiceName[];
  rules?: readonly ToolRule[];
  invokes?: readonly string[];
  hints?: ToolHints;
  run(input: z.output<S>, ctx: ToolCallContext): Promise<R>;
  views?: ToolViews<z.output<S>, R>;
}

/**
 * Builds an entry.
 * @throws Error when an argument rename names no schema key, or two arguments end up with the same name on a surface
 */
export function defineTool<S extends z.ZodObject, R>(def: ToolDefinition<S, R>): ToolEntry<S, R> {
  const keys = Object.keys(def.input.shape);
  const args: Partial<Record<Surface, Readonly<Record<string, string>>>> = {};
  for (const [surface, renames] of Object.entries(def.args ?? {}) as [Surface, Record<string, string>][]) {
    const unknown = Object.keys(renames).filter((k) => !keys.includes(k));
    if (unknown.length > 0) throw new Error(`Tool ${def.id}: ${surface} renames unknown argument(s) ${unknown.join(', ')}.`);
    args[surface] = { ...renames };
  }
  const description = def.description;
  return Object.freeze({
    id: def.id,
    names: Object.freeze({ ...def.names }),
    input: def.input,
    args: Object.freeze(args),
    requires: Object.freeze([...(def.requires ?? [])]),
    rules: Object.freeze([...(def.rules ?? [])]),
    invokes: Object.freeze([...(def.invokes ?? [])]),
    hints: Object.freeze({ ...def.hints }),
    describe: typeof description === 'string' ? () => description : description,
    run: def.run,
    views: Object.freeze({ ...def.views }),
  });
}

/** A copy of `entry` with `rules` appended to its own. */
export function withEntryRules<S extends z.ZodObject, R>(entry: ToolEntry<S, R>, rules: readonly ToolRule[]): ToolEntry<S, R> {
  return Object.freeze({ ...entry, rules: Object.freeze([...entry.rules, ...rules]) });
}

/**
 * The service `name` of the calling surface (the gate has checked that an entry's `requires` are there).
 * @throws INTERNAL when the surface did not provide it
 */
export function serviceOf<K extends ServiceName>(ctx: ToolContext, name: K): ToolServices[K] {
  const service = ctx.services[name];
  if (service === undefined) throw new MailroomError('INTERNAL', `This surface provides no ${name} service.`);
  return service;
}
