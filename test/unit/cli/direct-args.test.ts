/**
 * The hot verbs' direct reader (src/cli/direct-args.ts) reads a plain command line without
 * yargs. It must never read a line otherwise than yargs does: for generated lines (the commands'
 * words, positionals, options, global options and hostile tokens in any order), whenever the direct
 * path runs, its handler gets the same arguments and the run the same exit code as through yargs
 * (src/cli/run-cli.ts). And the lines users type most are read directly (else nothing is saved).
 */
import fc from 'fast-check';
import type { CommandModule } from 'yargs';
import { describe, expect, it } from 'vitest';
import type { CommandLine } from '../../../src/cli/command-line.js';
import { readDirect } from '../../../src/cli/direct-args.js';
import { commandWords } from '../../../src/cli/command-words.cjs';
import { GLOBAL_OPTIONS, type GlobalArgs } from '../../../src/cli/globals.js';
import { runCli } from '../../../src/cli/run-cli.js';
import { runVerb } from '../../../src/cli/run-direct.js';
import { teamGroup } from '../../../src/cli/commands/team-group.js';
import { BROADCAST_LINE, SEND_LINE, teamBroadcastCommand, teamSendCommand } from '../../../src/cli/commands/team-send.js';
import { INBOX_LINE, inboxCommand } from '../../../src/cli/commands/inbox.js';
import { TASK_LIST_LINE, TASK_SHOW_LINE, taskListCommand, taskShowCommand } from '../../../src/cli/commands/task.js';
import { MCP_LINE, mcpCommand } from '../../../src/cli/commands/mcp.js';

type Captured = { line: string; args: Record<string, unknown> } | undefined;
let captured: Captured;
const capture = (line: CommandLine) => (args: Record<string, unknown>) => {
  captured = { line: line.words.join(' '), args: { ...args } };
};
const asCommands = (c: unknown) => c as CommandModule<GlobalArgs, never>[];

/** The commands as yargs runs them, each handler replaced by a capture. */
const YARGS_COMMANDS = asCommands([
  teamGroup(asCommands([
    { ...teamSendCommand, handler: capture(SEND_LINE) },
    { ...teamBroadcastCommand, handler: capture(BROADCAST_LINE) },
  ])),
  { ...inboxCommand, handler: capture(INBOX_LINE) },
  {
    command: 'task <command>',
    describe: 'Tasks',
    builder: (y: { command(c: unknown): unknown }) => y.command([{ ...taskListCommand, handler: capture(TASK_LIST_LINE) }, { ...taskShowCommand, handler: capture(TASK_SHOW_LINE) }]),
    handler: () => undefined,
  },
  { ...mcpCommand, handler: capture(MCP_LINE) },
]);
const LINES = [SEND_LINE, BROADCAST_LINE, INBOX_LINE, TASK_LIST_LINE, TASK_SHOW_LINE, MCP_LINE];
const DIRECT = LINES.map((line) => ({ line, handler: capture(line) }));

async function throughYargs(argv: string[]): Promise<{ code: number; captured: Captured }> {
  captured = undefined;
  const code = await runCli([...argv], YARGS_COMMANDS);
  return { code, captured };
}

async function direct(argv: string[]): Promise<{ code: number; captured: Captured }> {
  captured = undefined;
  const code = await runVerb([...argv], DIRECT, () => {
    throw new Error(`the direct reader refused ${JSON.stringify(argv)}`);
  });
  return { code, captured };
}

const VALUES = ['bob', 'hi there', '', 'true', 'false', '5', '007', '1e3', '0x10', '-', '-x', '-5', '--', 'a=b', 'é ✓', 'delivered', 'read', '30s', 'abc', 'team', 'send', 'inbox', 'list', '--help', '-h'];

const PLAIN = ['bob', 'hi there', '', 'true', 'false', '5', '007', 'é ✓', 'delivered', 'pending', '30s', 'a=b'];

/** A token fitting `name` of `line` or the globals: a flag, or a string option with a value (`--o v`, `--o=v`). */
function fitting(line: CommandLine): fc.Arbitrary<string[]> {
  const options = [...Object.entries(line.options), ...Object.entries(GLOBAL_OPTIONS)].flatMap(([n, o]) => (o.alias ? [[n, o] as const, [o.alias, o] as const] : [[n, o] as const]));
  return fc.constantFrom(...options).chain(([n, o]) => {
    if (o.type === 'boolean') return fc.constant([`--${n}`]);
    const value = fc.constantFrom(...(o.choices ?? PLAIN));
    return fc.oneof(value.map((v) => [`--${n}`, v]), value.map((v) => [`--${n}=${v}`]));
  });
}

/** Tokens for `line`: plain values, its options and the global ones used right, and hostile ones. */
function tokens(line: CommandLine): fc.Arbitrary<string[]> {
  const names = [...Object.entries(line.options).flatMap(([n, o]) => (o.alias ? [n, o.alias] : [n])), ...Object.keys(GLOBAL_OPTIONS), 'bogus', 'no-json', 'help', 'version', 'Summary', 'shutdownRequest', 'constructor', 'toString', '__proto__'];
  const value = fc.constantFrom(...VALUES);
  const name = fc.constantFrom(...names);
  const hostile = fc.oneof(
    value.map((v) => [v]),
    name.map((n) => [`--${n}`]),
    fc.tuple(name, value).map(([n, v]) => [`--${n}`, v]),
    fc.tuple(name, value).map(([n, v]) => [`--${n}=${v}`]),
    fc.constantFrom<string[]>(['-j'], ['--'], ['--json', '--json']),
  );
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PLAIN).map((v) => [v]) }, { weight: 4, arbitrary: fitting(line) }, { weight: 1, arbitrary: hostile });
}

/** Its required options with a value (`mcp --as v`), mostly given: else few generated lines could be read directly. */
function requiredOptions(line: CommandLine): fc.Arbitrary<string[]> {
  const each = Object.entries(line.options).filter(([, o]) => o.required).map(([n]) => fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...PLAIN).map((v) => [`--${n}`, v]) }, { weight: 1, arbitrary: fc.constant([]) }));
  return fc.tuple(...each).map((parts) => parts.flat());
}

/** A command line for `line`: global options, its words (sometimes not), its required options (mostly), then its tokens. */
function commandLine(line: CommandLine): fc.Arbitrary<string[]> {
  const globals = fc.array(fc.constantFrom(['--root', '/tmp/x'], ['--team=demo'], ['--json'], ['--store-timeout', '5s']), { maxLength: 2 });
  const words = fc.oneof({ weight: 9, arbitrary: fc.constant([...line.words]) }, { weight: 1, arbitrary: fc.shuffledSubarray([...line.words, 'task', 'team']) });
  return fc.tuple(globals, words, requiredOptions(line), fc.array(tokens(line), { maxLength: 5 })).map(([g, w, r, t]) => [...g.flat(), ...w, ...r, ...t.flat()]);
}

describe('the direct reader reads a line as yargs does', () => {
  it.each(LINES.map((l) => [l.words.join(' '), l] as const))('%s: generated lines', async (_name, line) => {
    let read = 0;
    await fc.assert(
      fc.asyncProperty(commandLine(line), async (argv) => {
        if (!readDirect(argv, LINES)) return;
        read++;
        expect(await direct(argv), JSON.stringify(argv)).toEqual(await throughYargs(argv));
      }),
      { numRuns: 500 },
    );
    expect(read).toBeGreaterThan(50); // the property was tried on lines read directly
  });

  it.each([
    ['team', 'send', 'bob', 'hi'],
    ['--root', '/tmp/x', 'team', 'send', 'bob', 'hi there', '--summary', 'Where to start', '--json'],
    ['team', 'send', 'team-lead', '--as', 'researcher', '--shutdown-approve', '--request-id', 'shutdown-1@researcher'],
    ['team', 'send', 'bob', 'hi', '--wait', 'read', '--timeout', '30s'],
    ['team', 'send', 'bob', 'hi', '--from=alice', '--idempotency-key', 'k1'],
    ['team', 'broadcast', 'Stand-up in 5 minutes'],
    ['inbox'],
    ['inbox', 'bob', '--unread', '--mark-read', '--team', 'demo'],
    ['inbox', '--as', 'alice', '--status', '--json'],
    ['task', 'list', '--ready'],
    ['task', 'list', '--status', 'pending', '--owner', 'bob'],
    ['task', 'show', '2'],
    ['mcp', '--as', 'codex'],
    ['--root', '/tmp/x', 'mcp', '--team', 'demo', '--as', 'codex', '--model', 'gpt-5', '--type', 'reviewer'],
    ['mcp', '--as=codex', '--json'],
  ])('%j is read directly, as yargs reads it', async (...argv) => {
    expect(readDirect(argv, LINES)).toBeDefined();
    const viaYargs = await throughYargs(argv);
    expect(viaYargs.code).toBe(0);
    expect(await direct(argv)).toEqual(viaYargs);
  });

  it.each([
    ['team', 'send', 'bob', 'hi', '--help'],
    ['team', 'send', 'bob', '-'],
    ['team', 'send', 'bob', 'hi', '--no-json'],
    ['team', 'send', 'bob', 'hi', '--as', 'a', '--as', 'b'],
    ['team', 'send', 'bob', 'hi', '--wait', 'soon'],
    ['team', 'send', 'bob', 'hi', 'extra'],
    ['team', 'send'],
    ['team', 'send', 'bob', '--json', 'true'],
    ['team', 'send', 'bob', '--shutdown-approve', '--shutdown-reject'],
    ['--as', 'alice', 'team', 'send', 'bob', 'hi'],
    ['team', 'send', 'bob', '--summary', '-x'],
    ['team', 'send', '--', 'bob', 'hi'],
    ['inbox', '-j'],
    ['task', 'add', 'x'],
    // Names every object has (a break test found them read as global options, and the line run).
    ['team', 'send', 'bob', 'hi', '--constructor', 'x'],
    ['team', 'send', 'bob', 'hi', '--toString', 'x'],
    ['team', 'send', 'bob', 'hi', '--__proto__=x'],
    ['inbox', '--unread', '--mark-read', '--hasOwnProperty', 'x', 'bob'],
    ['task', 'show', '1', '--valueOf=1'],
    // `--as` is required (yargs names it missing); `--capability` is an array option the reader does not take.
    ['mcp'],
    ['mcp', '--model', 'gpt-5'],
    ['mcp', '--as', 'codex', '--capability', 'review'],
    ['mcp', '--as', 'codex', '--capability=review,csv'],
  ])('%j goes to yargs', (...argv) => {
    expect(readDirect(argv, LINES)).toBeUndefined();
  });
});

describe('the launcher knows the same global options (src/cli/command-words.cts keeps its own list: it imports nothing)', () => {
  it.each(Object.entries(GLOBAL_OPTIONS))('--%s before the command words', (name, option) => {
    const before = option.type === 'string' ? [`--${name}`, 'v'] : [`--${name}`];
    expect(commandWords([...before, 'team', 'send', 'bob'])).toEqual(['team', 'send']);
    if (option.type === 'string') expect(commandWords([`--${name}=v`, 'inbox'])).toEqual(['inbox']);
    else expect(commandWords([`--no-${name}`, 'inbox'])).toEqual(['inbox']);
  });
});
