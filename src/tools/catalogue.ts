/**
 * The catalogue: every tool once, and the gate every call goes through, whichever surface made it.
 * The gate checks enablement, runs the catalogue-wide rules and then the entry's own (policy,
 * approvals), and only then the handler. Surfaces (src/runtime/tools, src/mcp/tools.ts) validate
 * with the entry's schema under their own argument names, rename to canonical names, call
 * {@link Catalogue.call}, and shape the result.
 */
import type { z } from 'zod';
import { isMailroomError, MailroomError } from '../errors.js';
import { withEntryRules, type DescribeScope, type ToolCallContext, type ToolEntry } from './entry.js';
import { argName } from './naming.js';
import { notPermitted, type ToolCall, type ToolRule } from './rules.js';
import type { ServiceName, Surface, ToolContext, ToolScope } from './types.js';

/** The services each surface provides to its tools (its adapter must supply them). */
export const SURFACE_SERVICES: Readonly<Record<Surface, readonly ServiceName[]>> = {
  runtime: ['commands'],
  mcp: ['inbox'],
};

/** An immutable set of entries plus catalogue-wide rules. */
export class Catalogue {
  private readonly byId = new Map<string, ToolEntry>();

  /**
   * @throws Error on a duplicate id, a duplicate name on one surface, or an entry exposed on a
   * surface that does not provide a service it requires
   */
  constructor(
    entries: readonly ToolEntry[],
    /** Rules applied to every entry, before the entry's own. */
    readonly rules: readonly ToolRule[] = [],
  ) {
    const names = new Map<string, string>();
    for (const entry of entries) {
      if (this.byId.has(entry.id)) throw new Error(`Duplicate tool id ${entry.id}.`);
      this.byId.set(entry.id, entry);
      for (const [surface, name] of Object.entries(entry.names) as [Surface, string][]) {
        const key = `${surface}:${name}`;
        if (names.has(key)) throw new Error(`Tools ${names.get(key)} and ${entry.id} are both called ${name} on ${surface}.`);
        names.set(key, entry.id);
        const missing = entry.requires.filter((s) => !SURFACE_SERVICES[surface].includes(s));
        if (missing.length > 0) throw new Error(`Tool ${entry.id} is exposed on ${surface}, which does not provide ${missing.join(', ')}.`);
      }
    }
    for (const entry of entries) {
      const unknown = entry.invokes.filter((id) => !this.byId.has(id));
      if (unknown.length > 0) throw new Error(`Tool ${entry.id} invokes ${unknown.join(', ')}, which the catalogue lacks.`);
    }
  }

  /** Every entry, in catalogue order. */
  get entries(): ToolEntry[] {
    return [...this.byId.values()];
  }

  /** The entry with this id. */
  get(id: string): ToolEntry | undefined {
    return this.byId.get(id);
  }

  /** The entries `surface` exposes (whether or not enabled for a given member). */
  exposedOn(surface: Surface): ToolEntry[] {
    return this.entries.filter((e) => e.names[surface] !== undefined);
  }

  /** The entry `surface` calls `name`. */
  byName(surface: Surface, name: string): ToolEntry | undefined {
    return this.entries.find((e) => e.names[surface] === name);
  }

  /** Catalogue-wide rules, then the entry's own. */
  rulesOf(entry: ToolEntry): ToolRule[] {
    return [...this.rules, ...entry.rules];
  }

  /** The first rule that disables `entry` for `who` on `surface`, or undefined when it is enabled. */
  disabledBy(entry: ToolEntry, surface: Surface, who: { team: string; member: string }): ToolRule | undefined {
    const scope: ToolScope = { tool: entry.id, surface, team: who.team, member: who.member };
    return this.rulesOf(entry).find((r) => r.enabled !== undefined && !r.enabled(scope));
  }

  /** The entries `surface` offers to `who`: exposed there and enabled. */
  enabledOn(surface: Surface, who: { team: string; member: string }): ToolEntry[] {
    return this.exposedOn(surface).filter((e) => this.disabledBy(e, surface, who) === undefined);
  }

  /** The entry's description on `surface`, for `member`. */
  describe(entry: ToolEntry, surface: Surface, member?: string): string {
    const scope: DescribeScope = {
      surface,
      member,
      tool: (id) => this.get(id)?.names[surface],
      arg: (key) => argName(entry, surface, key),
    };
    return entry.describe(scope);
  }

  /**
   * A catalogue with `rules` added: to one entry (by id), or to all (`'*'`, after the existing
   * catalogue-wide rules). The entry keeps its place and every other property.
   * @throws Error for an unknown id
   */
  withRules(target: string, ...rules: ToolRule[]): Catalogue {
    if (target === '*') return new Catalogue(this.entries, [...this.rules, ...rules]);
    if (!this.byId.has(target)) throw new Error(`No tool ${target} in the catalogue.`);
    return new Catalogue(this.entries.map((e) => (e.id === target ? withEntryRules(e, rules) : e)), this.rules);
  }

  /**
   * The gate: runs entry `id` for a call from `surface` with validated, canonical `input`.
   * Enablement, then every rule's `check`, then the handler.
   * @throws NOT_PERMITTED when a rule disables or refuses the call; whatever the handler throws
   */
  async call(id: string, input: Record<string, unknown>, ctx: ToolContext, surface: Surface, parent?: ToolCall): Promise<unknown> {
    const entry = this.byId.get(id);
    if (!entry) throw new MailroomError('INTERNAL', `No tool ${id} in the catalogue.`);
    const call: ToolCall = { tool: id, name: entry.names[surface] ?? id, surface, input, ctx, parent };
    const off = this.disabledBy(entry, surface, { team: ctx.target.team, member: ctx.member });
    if (off) throw notPermitted(off.name, call, `${call.name} is not enabled for ${ctx.member}${parent ? ` (called by ${parent.name})` : ''}`);
    const missing = entry.requires.filter((s) => ctx.services[s] === undefined);
    if (missing.length > 0) throw new MailroomError('INTERNAL', `${call.name} needs ${missing.join(', ')}, which the ${surface} surface did not provide.`);
    for (const rule of this.rulesOf(entry)) await rule.check?.(call);
    try {
      return await entry.run(input, this.handlerContext(ctx, call));
    } catch (err) {
      // A use case's refusal (the team policy, src/core/teams/policy.ts) names the tool too, as a rule's does.
      if (isMailroomError(err, 'NOT_PERMITTED') && err.details.tool === undefined) throw new MailroomError('NOT_PERMITTED', err.message, { cause: err.cause, details: { ...err.details, tool: id } });
      throw err;
    }
  }

  private handlerContext(ctx: ToolContext, call: ToolCall): ToolCallContext {
    const invoke = async <S extends z.ZodObject, R>(entry: ToolEntry<S, R>, input: z.input<S>): Promise<R> => {
      const caller = this.get(call.tool);
      if (!caller?.invokes.includes(entry.id)) throw new MailroomError('INTERNAL', `${call.tool} runs ${entry.id} without listing it in invokes.`);
      const own = this.get(entry.id) ?? entry;
      const parsed = own.input.safeParse(input);
      if (!parsed.success) throw new MailroomError('INTERNAL', `${call.name} passed invalid input to ${entry.id}: ${parsed.error.message}`);
      return (await this.call(entry.id, parsed.data as Record<string, unknown>, ctx, call.surface, call)) as R;
    };
    // The use cases journal a refusal with the surface it came from.
    return { ...ctx, target: { ...ctx.target, surface: call.surface }, call, invoke };
  }
}
