/**
 * `mailroom run` that fails before the team can work leaves nothing behind: a member's model that
 * cannot be created (no API key, an unknown kind, a scripted file that is missing) or a work
 * directory that cannot be made. Before, the team was created first and the model checked after,
 * so running again once the key was set met TEAM_EXISTS (exit 4). The error is the only output: the
 * "mailroom run: <file>" header comes once the team is set up (new-user trial, session 18: it was
 * printed before a missing or invalid file's error).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { runCli } from '../helpers/cli.js';
import { cleanEnv, listFiles } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
let file: string;
beforeAll(async () => {
  dir = await makeTempDir();
  file = join(dir.path, 'team.yaml');
  await writeFile(file, 'team: early\nmembers: [{name: a}, {name: b, model: worker}]\ntasks:\n  - {subject: One, command: "echo one > one.txt", outputs: [one.txt]}\n');
  await writeFile(join(dir.path, 'a-file'), 'not a directory\n');
});
afterAll(() => dir.cleanup());

const noKeys = () => cleanEnv({ ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' });

const CASES = [
  { what: 'no API key', args: ['--model', 'anthropic:claude-sonnet-4-5'], code: 1, says: 'MODEL_ERROR: No API key' },
  { what: 'an unknown model kind', args: ['--model', 'bogus:x'], code: 2, says: 'Unknown model "bogus:x"' },
  { what: 'a missing scripted-model file', args: ['--model', 'scripted:/nonexistent/turns.yaml'], code: 2, says: '/nonexistent/turns.yaml' },
  { what: 'a work directory under a file', args: [], workdir: 'a-file/work', code: 2, says: 'Cannot create the work directory' },
];

describe('mailroom run failing before the team can work', () => {
  it.each(CASES)('$what: exits $code naming it and leaves no store and no work directory', async (c) => {
    const { what, args, code, says } = c;
    const slug = what.replace(/\W+/g, '-');
    const root = join(dir.path, `root-${slug}`);
    const workdir = join(dir.path, ('workdir' in c ? c.workdir : undefined) ?? `work-${slug}`);
    const run = await runCli(['run', file, '--root', root, '--workdir', workdir, '--timeout', '5000', ...args], noKeys());
    expect(run.code, run.stderr).toBe(code);
    expect(run.stderr).toContain(says);
    expect(run.stdout).toBe(''); // no "mailroom run: <file>" header: the run never started
    expect(await listFiles(root).catch(() => [])).toEqual([]);
    expect(await listFiles(workdir).catch(() => 'missing')).toBe('missing');
  });

  it.each([
    { what: 'a missing team file', name: 'missing.yaml', text: undefined, says: 'Cannot read team file' },
    { what: 'a team file that is not YAML', name: 'bad.yaml', text: 'team: [\n', says: 'is invalid' },
  ])('$what: the error is the only output, no "mailroom run: <file>" header before it (new-user trial)', async ({ name, text, says }) => {
    const teamFile = join(dir.path, name);
    if (text !== undefined) await writeFile(teamFile, text);
    const run = await runCli(['run', teamFile, '--root', join(dir.path, `root-${name}`)], noKeys());
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`mailroom: INVALID_ARGUMENT: ${says.startsWith('Cannot') ? says : `Team file ${teamFile} ${says}`}`);
  });

  it('after a missing key, the same command with the key set runs the team (no TEAM_EXISTS)', async () => {
    const root = join(dir.path, 'root-again');
    const workdir = join(dir.path, 'work-again');
    const first = await runCli(['run', file, '--root', root, '--workdir', workdir, '--model', 'anthropic:claude-sonnet-4-5'], noKeys());
    expect(first.code, first.stderr).toBe(1);
    const second = await runCli(['run', file, '--root', root, '--workdir', workdir], noKeys()); // the "fixed" run: offline workers
    expect(second.code, second.stderr).toBe(0);
    expect((await openFsStores(root).team.listTasks('early')).map((t) => t.status)).toEqual(['completed']);
  });
});
