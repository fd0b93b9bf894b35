/**
 * The catalogue's machinery on small entries of its own: per-surface argument names derived from
 * one schema, the checks a catalogue makes when it is built, and the gate's order (enablement,
 * catalogue-wide rules, the entry's rules, the handler), including a call one entry makes to another.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isMailroomError } from '../../../src/errors.js';
import {
  CATALOGUE,
  Catalogue,
  argName,
  defineTool,
  notPermitted,
  snakeCase,
  surfaceSchema,
  toCanonical,
  type ToolCall,
  type ToolContext,
  type ToolRule,
} from '../../../src/tools/index.js';
import { openFsStores } from '../../../src/store/open.js';

const echo = defineTool({
  id: 'echo_args',
  names: { runtime: 'EchoArgs', mcp: 'echo_args' },
  description: (d) => `Echo; the id is called ${d.arg('taskId')} here.`,
  input: z.object({ taskId: z.string(), activeForm: z.string().optional(), addBlockedBy: z.array(z.string()).optional() }),
  args: { mcp: { taskId: 'id' } },
  run: async (input) => ({ ...input }),
});

const inner = defineTool({
  id: 'inner',
  names: { mcp: 'inner' },
  description: 'Inner.',
  input: z.object({ text: z.string() }),
  run: async (input) => `inner got ${input.text}`,
});

const outer = defineTool({
  id: 'outer',
  names: { runtime: 'Outer', mcp: 'outer' },
  description: 'Outer: runs inner.',
  input: z.object({ text: z.string() }),
  invokes: ['inner'],
  run: (input, ctx) => ctx.invoke(inner, { text: input.text.toUpperCase() }),
});

/** What `p` rejects with; fails when it resolves. */
async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to be refused');
}

function context(member = 'alice'): ToolContext {
  return { target: { root: openFsStores('/nonexistent'), team: 't' }, member, lead: 'team-lead', cwd: '/', signal: new AbortController().signal, record: {}, log: () => undefined, services: {} };
}

describe('argument names per surface', () => {
  it('uses the canonical names on the runtime and their snake_case over MCP, unless renamed', () => {
    expect(snakeCase('addBlockedBy')).toBe('add_blocked_by');
    expect(Object.keys(surfaceSchema(echo, 'runtime').shape)).toEqual(['taskId', 'activeForm', 'addBlockedBy']);
    expect(Object.keys(surfaceSchema(echo, 'mcp').shape)).toEqual(['id', 'active_form', 'add_blocked_by']);
    expect(argName(echo, 'mcp', 'taskId')).toBe('id');
  });

  it('maps validated surface arguments back to canonical names, dropping unknown keys', () => {
    const parsed = surfaceSchema(echo, 'mcp').parse({ id: '1', active_form: 'Echoing', extra: true });
    expect(toCanonical(echo, 'mcp', parsed)).toEqual({ taskId: '1', activeForm: 'Echoing' });
  });

  it('shares the field schemas, so both surfaces refuse the same values', () => {
    expect(surfaceSchema(echo, 'runtime').safeParse({ taskId: 3 }).success).toBe(false);
    expect(surfaceSchema(echo, 'mcp').safeParse({ id: 3 }).success).toBe(false);
  });

  it('describes an argument by the name the surface uses', () => {
    const catalogue = new Catalogue([echo]);
    expect(catalogue.describe(echo, 'mcp')).toBe('Echo; the id is called id here.');
    expect(catalogue.describe(echo, 'runtime')).toBe('Echo; the id is called taskId here.');
  });

  it('refuses a rename of an argument the schema does not have, and two arguments with one name', () => {
    const input = z.object({ taskId: z.string(), id: z.string() });
    expect(() => defineTool({ id: 'x', names: { mcp: 'x' }, description: '', input, args: { mcp: { nope: 'n' } as never }, run: async () => 0 })).toThrow(/unknown argument/);
    const clash = defineTool({ id: 'y', names: { mcp: 'y' }, description: '', input, args: { mcp: { taskId: 'id' } }, run: async () => 0 });
    expect(() => surfaceSchema(clash, 'mcp')).toThrow(/two arguments are called "id"/);
  });
});

describe('building a catalogue', () => {
  it('refuses two tools with one name on a surface', () => {
    const twin = defineTool({ ...echo, id: 'twin', description: '', names: { mcp: 'echo_args' }, args: {} });
    expect(() => new Catalogue([echo, twin])).toThrow(/both called echo_args on mcp/);
  });

  it('refuses a tool on a surface that lacks a service it requires', () => {
    const needy = defineTool({ id: 'needy', names: { runtime: 'Needy' }, description: '', input: z.object({}), requires: ['inbox'], run: async () => 0 });
    expect(() => new Catalogue([needy])).toThrow(/runtime, which does not provide inbox/);
  });

  it('builds the default catalogue: snake_case ids, Claude Code style runtime names, snake_case MCP names, unique arguments', () => {
    for (const entry of CATALOGUE.entries) {
      expect(entry.id).toMatch(/^[a-z]+(_[a-z]+)*$/);
      if (entry.names.runtime) expect(entry.names.runtime).toMatch(/^[A-Z][A-Za-z]+$/);
      if (entry.names.mcp) expect(entry.names.mcp).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(Object.keys(entry.names).length).toBeGreaterThan(0);
      for (const surface of ['runtime', 'mcp'] as const) expect(() => surfaceSchema(entry, surface)).not.toThrow();
    }
  });
});

describe('the gate', () => {
  it('runs enablement, then catalogue-wide rules, then the entry rules, then the handler', async () => {
    const order: string[] = [];
    const rule = (name: string): ToolRule => ({ name, enabled: () => (order.push(`${name}.enabled`), true), check: () => void order.push(`${name}.check`) });
    const catalogue = new Catalogue([echo], [rule('team')]).withRules('echo_args', rule('entry'));
    const result = await catalogue.call('echo_args', { taskId: '7' }, context(), 'mcp');
    expect(result).toEqual({ taskId: '7' });
    expect(order).toEqual(['team.enabled', 'entry.enabled', 'team.check', 'entry.check']);
  });

  it('refuses a disabled tool with NOT_PERMITTED naming the rule, and does not run the handler', async () => {
    let ran = false;
    const tool = defineTool({ id: 'echo_args', names: { mcp: 'echo_args' }, description: '', input: echo.input, run: async () => (ran = true) });
    const catalogue = new Catalogue([tool]).withRules('echo_args', { name: 'only-bob', enabled: (s) => s.member === 'bob' });
    expect(catalogue.enabledOn('mcp', { team: 't', member: 'alice' })).toEqual([]);
    expect(catalogue.enabledOn('mcp', { team: 't', member: 'bob' }).map((e) => e.id)).toEqual(['echo_args']);
    const err = await thrown(catalogue.call('echo_args', { taskId: '1' }, context('alice'), 'mcp'));
    expect(isMailroomError(err, 'NOT_PERMITTED') && err.details).toEqual({ rule: 'only-bob', tool: 'echo_args' });
    expect(ran).toBe(false);
  });

  it('lets a check refuse with the canonical input in hand, whatever the surface called the arguments', async () => {
    const seen: ToolCall[] = [];
    const catalogue = new Catalogue([echo]).withRules('*', {
      name: 'no-seven',
      check: (call) => {
        seen.push(call);
        if (call.input.taskId === '7') throw notPermitted('no-seven', call, 'Task 7 is off limits');
      },
    });
    const err = await thrown(catalogue.call('echo_args', toCanonical(echo, 'mcp', { id: '7', active_form: 'x' }), context(), 'mcp'));
    expect(isMailroomError(err, 'NOT_PERMITTED') && err.message).toBe('Task 7 is off limits (rule: no-seven)');
    expect(seen.map((c) => [c.tool, c.name, c.surface, c.input])).toEqual([['echo_args', 'echo_args', 'mcp', { taskId: '7', activeForm: 'x' }]]);
  });

  it('runs the rules of an entry another entry invokes, with the outer call as parent', async () => {
    const seen: ToolCall[] = [];
    const base = new Catalogue([outer, inner]);
    expect(await base.call('outer', { text: 'hi' }, context(), 'runtime')).toBe('inner got HI');
    const refusing = base.withRules('inner', { name: 'no-inner', check: (call) => (seen.push(call), Promise.reject(notPermitted('no-inner', call, 'No'))) });
    const err = await thrown(refusing.call('outer', { text: 'hi' }, context(), 'runtime'));
    expect(isMailroomError(err, 'NOT_PERMITTED')).toBe(true);
    expect(seen.map((c) => [c.tool, c.surface, c.parent?.tool, c.input])).toEqual([['inner', 'runtime', 'outer', { text: 'HI' }]]);
  });

  it('refuses to run an entry the caller does not list in invokes', async () => {
    const sneaky = defineTool({ ...outer, id: 'sneaky', names: { mcp: 'sneaky' }, description: '', args: {}, invokes: [] });
    const err = await thrown(new Catalogue([sneaky, inner]).call('sneaky', { text: 'hi' }, context(), 'mcp'));
    expect(isMailroomError(err, 'INTERNAL') && err.message).toBe('sneaky runs inner without listing it in invokes.');
  });

  it('refuses an invoked entry that is disabled, naming the caller', async () => {
    const catalogue = new Catalogue([outer, inner]).withRules('inner', { name: 'off', enabled: () => false });
    const err = await thrown(catalogue.call('outer', { text: 'hi' }, context(), 'runtime'));
    expect(isMailroomError(err, 'NOT_PERMITTED') && err.message).toBe('inner is not enabled for alice (called by Outer) (rule: off)');
  });
});
