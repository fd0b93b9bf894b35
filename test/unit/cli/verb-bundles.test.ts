/**
 * Start-up by verb (issue 24 item 1): a hot verb runs from a bundle of its own
 * (src/cli/verbs/*.ts → dist/mailroom-<verb>.cjs), which holds what that verb needs and none of
 * doctor, repair, MCP, runtime, TUI, dashboard or bridge code. Checked in the bundles' module
 * graph (dist/mailroom.meta.json) and in the launcher's choice, not by timing; and the real
 * binary is seen running a send from its own bundle (the stack of its write to stdout).
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';
import { cleanEnv, mailroomOk } from '../../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { readBundleMeta, staticClosure, type BundleMeta } from '../../helpers/bundle-graph.js';

const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
const launch = createRequire(import.meta.url)(join(DIST, 'cli', 'launch.cjs')) as { bundleFor(argv: string[]): string; VERB_BUNDLES: Record<string, string> };

type Meta = BundleMeta;

/** Code no one-shot verb needs (the MCP bundle may hold src/mcp and the MCP SDK). */
const NOT_FOR_ONE_SHOT = /^(src\/(tui|runtime|dashboard|bridge)\/|src\/core\/doctor\/|src\/cli\/commands\/(doctor|run|agent|watch|dashboard|bridge)\.ts|node_modules\/(ink|react|@anthropic-ai|openai|yaml)\/|ink-)/;
const MCP = /^(src\/mcp\/|node_modules\/@modelcontextprotocol\/)/;

describe('each verb bundle holds its verb only', () => {
  let meta: Meta;
  beforeAll(async () => {
    meta = await readBundleMeta(join(DIST, 'mailroom.meta.json'));
  });
  const inputsOf = (bundle: string) => Object.keys(meta.outputs[`dist/${bundle}`]?.inputs ?? {});

  it.each(['send', 'ask', 'inbox', 'task'])('mailroom-%s.cjs: no doctor, repair, MCP, runtime, TUI, dashboard or bridge code, no other verb', (verb) => {
    const inputs = inputsOf(`mailroom-${verb}.cjs`);
    expect(inputs.length).toBeGreaterThan(50); // the graph is read right
    expect(inputs.filter((p) => NOT_FOR_ONE_SHOT.test(p) || MCP.test(p))).toEqual([]);
    expect(inputs.filter((p) => /doctor|repair-|team-spawn|team-delete|lease\.ts$/.test(p) && p.startsWith('src/cli/'))).toEqual([]);
  });

  it.each(['send', 'inbox', 'task'])('src/cli/verbs/%s.ts reaches yargs only through its dynamic import of run-cli.ts (a plain line runs without it)', (verb) => {
    const reached = staticClosure(meta, [`src/cli/verbs/${verb}.ts`]).inputs;
    expect(reached.has('src/cli/direct-args.ts')).toBe(true); // the graph is read right
    expect([...reached].filter((p) => /^node_modules\/(yargs|yargs-parser|cliui|y18n)\//.test(p) || p === 'src/cli/run-cli.ts')).toEqual([]);
    expect((meta.inputs['src/cli/run-direct.ts']?.imports ?? []).some((i) => i.path === 'src/cli/run-cli.ts' && i.kind === 'dynamic-import')).toBe(true);
  });

  it('mailroom-send.cjs holds the send and no task board', () => {
    const inputs = inputsOf('mailroom-send.cjs');
    expect(inputs).toContain('src/core/messages/send.ts');
    expect(inputs).not.toContain('src/cli/commands/task.ts');
    expect(inputs).not.toContain('src/cli/commands/team-ask.ts');
  });

  it('mailroom-mcp.cjs holds the MCP server, and no runtime or TUI', () => {
    const inputs = inputsOf('mailroom-mcp.cjs');
    expect(inputs.some((p) => MCP.test(p))).toBe(true);
    expect(inputs.filter((p) => NOT_FOR_ONE_SHOT.test(p))).toEqual([]);
  });

  it('the full bundle still holds everything (the check would see it)', () => {
    expect(inputsOf('mailroom.cjs').filter((p) => NOT_FOR_ONE_SHOT.test(p)).length).toBeGreaterThan(0);
  });
});

describe('the launcher picks the bundle from the command words', () => {
  const pick = (...argv: string[]) => launch.bundleFor(argv).split('/').pop();
  it.each([
    [['team', 'send', 'bob', 'hi'], 'mailroom-send.cjs'],
    [['--root', '/x', '--team=demo', 'team', '--json', 'send', 'bob', 'hi'], 'mailroom-send.cjs'],
    [['team', 'broadcast', 'hi'], 'mailroom-send.cjs'],
    [['team', 'ask', 'bob', 'q?'], 'mailroom-ask.cjs'],
    [['--store', 'redis://h:1', 'inbox', 'bob', '--unread'], 'mailroom-inbox.cjs'],
    [['task', 'claim', '--next', '--as', 'bob'], 'mailroom-task.cjs'],
    [['mcp', '--as', 'bob'], 'mailroom-mcp.cjs'],
    [['team', 'spawn', 'bob'], 'mailroom.cjs'],
    [['team', 'send', '--help'], 'mailroom.cjs'],
    [['--version'], 'mailroom.cjs'],
    [['--bogus', 'team', 'send'], 'mailroom.cjs'],
    [['team'], 'mailroom.cjs'],
    [[], 'mailroom.cjs'],
  ])('%j → %s', (argv, bundle) => {
    expect(pick(...argv)).toBe(bundle);
  });

  it('every bundle it names is built', async () => {
    for (const name of new Set(Object.values(launch.VERB_BUNDLES))) await expect(readFile(join(DIST, `mailroom-${name}.cjs`))).resolves.toBeDefined();
  });
});

describe('the real binary', () => {
  let tmp: TempDir;
  let probe: string;
  beforeAll(async () => {
    tmp = await makeTempDir('mailroom-verbs-');
    await mailroomOk(tmp.path, 'team', 'create', 'demo');
    await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
    probe = join(tmp.path, 'probe.cjs');
    await writeFile(probe, // The CLI prints a result with fs.writeSync(1, …) (src/cli/output.ts), a stream's output through process.stdout.
    "const fs = require('fs'); const ws = fs.writeSync; const w = process.stdout.write.bind(process.stdout); const stack = () => ws(2, new Error('probe').stack + '\\n'); process.stdout.write = (c, ...r) => { stack(); return w(c, ...r); }; fs.writeSync = (fd, ...a) => { if (fd === 1) stack(); return ws(fd, ...a); };\n");
  });
  afterAll(() => tmp.cleanup());

  const stackOf = (...args: string[]) =>
    new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--require', probe, BIN, '--root', tmp.path, ...args], { env: cleanEnv() }, (err, _out, stderr) => (err ? reject(err) : resolve(stderr)));
    });

  it('runs team send from mailroom-send.cjs, team show from the full CLI', async () => {
    const send = await stackOf('team', 'send', 'alice', 'hi');
    expect(send).toContain(join(DIST, 'mailroom-send.cjs'));
    expect(send).not.toContain(join(DIST, 'mailroom.cjs'));
    expect(await stackOf('team', 'show')).toContain(join(DIST, 'mailroom.cjs'));
  });

  it('reads a plain send line directly (src/cli/run-direct.ts), and hands another one to yargs', async () => {
    expect(await stackOf('team', 'send', 'alice', 'hi', '--summary', 'a plain line')).toMatch(/ at async runVerb /);
    expect(await stackOf('team', 'send', 'alice', 'hi', '--no-json')).not.toMatch(/runVerb/); // --no-… is yargs' to read
  });
});
