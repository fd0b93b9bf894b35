/**
 * Flags that used to lose silently are refused with USAGE (exit 2), naming both and the fix, and
 * nothing is written (issue 23): `--claude` with `--store`/$MAILROOM_STORE,
 * `bridge --claude --root`, an array option given without a value (`--blocked-by`), a policy
 * naming no member, an unsupported shell for `completion`, `run` with both a file and --example or
 * neither. And `store copy`'s TEAM_EXISTS hint names the target store, so pasting it acts there.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { runCli } from '../helpers/cli.js';
import { cleanEnv, mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
let root: string;
let claude: string;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-flags-');
  root = join(tmp.path, 'store');
  claude = join(tmp.path, 'claude');
  await mailroomOk(root, 'team', 'create', 'demo');
  await mailroomOk(root, 'team', 'spawn', 'alice');
});
afterAll(() => tmp.cleanup());

function usage(run: { code: number; stderr: string }, ...says: string[]): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toContain('USAGE');
  for (const s of says) expect(run.stderr).toContain(s);
}

describe('refused with USAGE', () => {
  it('--claude with --store', async () => {
    usage(await runCli(['team', 'list', '--claude', '--store', 'redis://u:secret@127.0.0.1:1'], cleanEnv({ CLAUDE_CONFIG_DIR: claude })), '--claude and --store redis://u:***@127.0.0.1:1', 'drop --claude');
  });

  it('--claude with $MAILROOM_STORE', async () => {
    const run = await runCli(['watch', '--claude', '--json'], cleanEnv({ CLAUDE_CONFIG_DIR: claude, MAILROOM_STORE: 'redis://127.0.0.1:1' }));
    usage(run, '$MAILROOM_STORE (redis://127.0.0.1:1)', 'unset MAILROOM_STORE');
  });

  it('bridge --claude --root', async () => {
    usage(await runCli(['bridge', '--claude', '--root', root, '--team', 'demo', '--store', 'redis://127.0.0.1:1'], cleanEnv({ CLAUDE_CONFIG_DIR: claude })), `--claude and --root ${root}`);
  });

  it('--blocked-by without ids adds no task', async () => {
    usage(await mailroom(root, 'task', 'add', 'x', '--blocked-by'), '--blocked-by was given without a value');
    expect(await openFsStores(root).team.listTasks('demo')).toEqual([]);
  });

  it('a policy naming no member changes nothing', async () => {
    usage(await mailroom(root, 'team', 'policy', '--allow', 'createTasks=nosuchmember'), '"nosuchmember"', 'Members: team-lead, alice');
    usage(await mailroom(root, 'team', 'policy', '--allow', 'message.bobby=@lead'), '"bobby"');
    expect((await openFsStores(root).team.readSettings('demo')).policy ?? {}).toEqual({});
    await mailroomOk(root, 'team', 'policy', '--allow', 'createTasks=alice,@lead', '--allow', 'message.*=*');
  });

  it('completion for a shell it does not support', async () => {
    usage(await runCli(['completion', 'fish'], cleanEnv()), 'bash and zsh, not "fish"');
    const bash = await runCli(['completion', 'bash'], cleanEnv());
    expect(bash.code).toBe(0);
  });

  it('run with a file and --example, or with neither', async () => {
    usage(await mailroom(root, 'run', 'team.yaml', '--example'), 'not both');
    usage(await mailroom(root, 'run'), '--example');
  });
});

it("store copy's TEAM_EXISTS hint names the target store", async () => {
  const target = join(tmp.path, 'target');
  await mailroomOk(target, 'team', 'create', 'demo');
  const run = await runCli(['store', 'copy', '--team', 'demo', '--from', root, '--to', target], cleanEnv());
  expect(run.code, run.stderr).toBe(4);
  expect(run.stderr).toContain(`\`mailroom --root ${target} team delete demo\``);
});
