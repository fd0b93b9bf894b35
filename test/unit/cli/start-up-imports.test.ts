/**
 * The hot verbs (team send, inbox, task …) load nothing of ink, react, the model SDKs, the MCP SDK,
 * chokidar or yaml (issue 14). Checked two ways, neither by timing:
 *  - the bundle's module graph (dist/mailroom.meta.json, written by scripts/bundle-cli.mjs): what
 *    the CLI entry and the hot commands' handlers import, following every static import;
 *  - the real binary run with module hooks that report every module loaded from node_modules.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMember } from '../../../src/domain/roster.js';
import { openFsStores } from '../../../src/store/open.js';
import { BIN } from '../../helpers/cli.js';
import { cleanEnv, mailroomOk } from '../../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { checkoutPath, readBundleMeta, staticClosure, type BundleMeta } from '../../helpers/bundle-graph.js';

const HOOKS = fileURLToPath(new URL('../../helpers/record-loads.mjs', import.meta.url));
const META = fileURLToPath(new URL('../../../dist/mailroom.meta.json', import.meta.url));

/** What no hot verb may load: packages, and our own parts built on them. */
const HEAVY = /^(node_modules\/(ink|react|@anthropic-ai|openai|@modelcontextprotocol|chokidar|redis|@redis|yaml|ajv)\/|ink-|src\/(tui|mcp|runtime)\/)/;
const HEAVY_EXTERNAL = /^(ink|react|@anthropic-ai\/sdk|openai|chokidar|redis|@redis\/)/;

type Meta = Pick<BundleMeta, 'inputs'>;

/** What a command module's handler imports (its dynamic imports), with their static closure. */
function handlerTargets(meta: Meta, command: string): string[] {
  return (meta.inputs[command]?.imports ?? []).filter((i) => i.kind === 'dynamic-import').map((i) => i.path);
}

describe('the bundle: what the entry and the hot handlers import', () => {
  let meta: Meta;
  beforeAll(async () => {
    meta = await readBundleMeta(META);
  });

  it("reads packages as a clone's build names them, also in a worktree whose node_modules is a symlink", () => {
    expect(checkoutPath('../../main/node_modules/zod/v3/index.js')).toBe('node_modules/zod/v3/index.js');
    expect(checkoutPath('../node_modules/a/node_modules/b/index.js')).toBe('node_modules/a/node_modules/b/index.js');
    expect(checkoutPath('node_modules/a/node_modules/b/index.js')).toBe('node_modules/a/node_modules/b/index.js');
    expect(checkoutPath('src/cli/main.ts')).toBe('src/cli/main.ts');
    expect(Object.keys(meta.inputs).filter((p) => p.startsWith('../'))).toEqual([]); // else HEAVY would match nothing and the checks below pass unseen
    expect(Object.keys(meta.inputs).some((p) => p.startsWith('node_modules/yargs/'))).toBe(true);
  });

  it('the entry imports nothing heavy, and no library use case until a handler runs', () => {
    const { inputs, externals } = staticClosure(meta, ['src/cli/main.ts']);
    expect(inputs.has('src/cli/commands/team-send.ts')).toBe(true); // the graph is read right
    expect([...inputs].filter((p) => HEAVY.test(p))).toEqual([]);
    expect([...externals].filter((p) => HEAVY_EXTERNAL.test(p))).toEqual([]);
    for (const lazy of ['src/core/messages/send.ts', 'src/core/tasks/board.ts', 'src/core/doctor/doctor.ts']) expect(inputs.has(lazy), lazy).toBe(false);
  });

  it.each(['team-send', 'inbox', 'task', 'task-update', 'task-claim', 'team'])('%s: its handler imports nothing heavy', (name) => {
    const command = `src/cli/commands/${name}.ts`;
    const targets = handlerTargets(meta, command);
    expect(targets.length).toBeGreaterThan(0);
    const { inputs, externals } = staticClosure(meta, ['src/cli/main.ts', ...targets]);
    expect([...inputs].filter((p) => HEAVY.test(p))).toEqual([]);
    expect([...externals].filter((p) => HEAVY_EXTERNAL.test(p))).toEqual([]);
  });

  it('the check would see a heavy import: watch and mcp handlers reach ink and the MCP SDK', () => {
    const watch = staticClosure(meta, handlerTargets(meta, 'src/cli/commands/watch.ts'));
    expect([...watch.inputs].filter((p) => HEAVY.test(p))).toContain('ink-entry:src/tui/run.tsx');
    const mcp = staticClosure(meta, handlerTargets(meta, 'src/cli/commands/mcp.ts'));
    expect([...mcp.inputs].some((p) => p.startsWith('node_modules/@modelcontextprotocol/'))).toBe(true);
  });
});

describe('the real binary: modules loaded from node_modules', () => {
  let tmp: TempDir;
  beforeAll(async () => {
    tmp = await makeTempDir('mailroom-imports-');
    await mailroomOk(tmp.path, 'team', 'create', 'demo');
    await mailroomOk(tmp.path, 'team', 'spawn', 'alice');
    await mailroomOk(tmp.path, 'task', 'add', 'first');
  });
  afterAll(() => tmp.cleanup());

  function loadedBy(...args: string[]): Promise<{ code: number; loaded: string[] }> {
    return new Promise((resolve) => {
      execFile(process.execPath, ['--import', HOOKS, BIN, '--root', tmp.path, ...args], { env: cleanEnv() }, (err, _out, stderr) => {
        const loaded = [...new Set([...stderr.matchAll(/^LOADED .*node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1] as string))];
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, loaded });
      });
    });
  }

  const HOT: string[][] = [
    ['team', 'send', 'alice', 'hi'],
    ['team', 'broadcast', 'all'],
    ['inbox', 'alice'],
    ['task', 'add', 'second', '--blocked-by', '1'],
    ['task', 'list'],
    ['task', 'show', '1'],
    ['task', 'update', '2', '--remove-blocked-by', '1'],
    ['task', 'claim', '1', '--as', 'alice'],
    ['team', 'show'],
  ];

  it.each(HOT.map((args) => [args.join(' '), args] as const))('mailroom %s: none', async (_name, args) => {
    const run = await loadedBy(...args);
    expect(run.code).toBe(0);
    expect(run.loaded).toEqual([]);
  });

  it('the hooks see a package that is loaded', async () => {
    const loaded = await new Promise<string>((resolve) => {
      execFile(process.execPath, ['--import', HOOKS, '--input-type=module', '-e', "await import('ink')"], { cwd: fileURLToPath(new URL('../../../', import.meta.url)), env: cleanEnv() }, (_err, _out, stderr) => resolve(stderr));
    });
    expect(loaded).toMatch(/^LOADED .*node_modules\/ink\//m);
  });

  it('team stop waits for the member with fs.watch: no package loaded', async () => {
    // A member mailroom did not register (no member record, as Claude Code's own): it is asked, and waited for.
    const { team } = await mailroomOk(tmp.path, 'team', 'list', '--json').then((r) => ({ team: (JSON.parse(r.stdout) as string[])[0]! }));
    await openFsStores(tmp.path).team.addMember(team, buildMember({ name: 'bob', team, model: 'x', cwd: tmp.path, joinedAt: Date.now() }));
    const run = await loadedBy('team', 'stop', 'bob', '--timeout', '100ms');
    expect(run.code).toBe(0);
    expect(run.loaded).toEqual([]);
  });
});
