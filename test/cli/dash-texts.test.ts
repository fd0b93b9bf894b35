/**
 * Message texts that begin with a dash reach the inbox as typed (yargs reads any argument that
 * begins with `-` as options: yargs/yargs-parser#177). An agent sending a Markdown list
 * (`"- item one\n- item two"`) got a garbled USAGE error that told it to quote a text it had
 * quoted. Now an argument that begins with `-` and has whitespace before any `=` is a value, and
 * `--` ends the options: every argument after it is a positional, as in any POSIX tool. Both the
 * direct reader of `team send` and yargs (`team ask`, `lease acquire`) read them so.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailroom, mailroomOk } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
let root: string;
beforeAll(async () => {
  tmp = await makeTempDir('mailroom-dash-');
  root = join(tmp.path, 'store');
  await mailroomOk(root, 'team', 'create', 'demo');
  await mailroomOk(root, 'team', 'spawn', 'alice');
});
afterAll(() => tmp.cleanup());

type Listed = { messages: Array<{ entry: { text: string; summary?: string } }> };

/** The entries in alice's inbox, oldest first. */
async function entries(): Promise<Array<{ text: string; summary?: string }>> {
  const run = await mailroomOk(root, 'inbox', 'alice', '--all', '--json');
  return (JSON.parse(run.stdout) as Listed).messages.map((m) => m.entry);
}

async function texts(): Promise<string[]> {
  return (await entries()).map((e) => e.text);
}

async function sentAs(args: string[], text: string): Promise<void> {
  const before = (await texts()).length;
  const run = await mailroom(root, ...args);
  expect(run.code, run.stderr).toBe(0);
  const after = await texts();
  expect(after.length).toBe(before + 1);
  expect(after.at(-1)).toBe(text);
}

describe('a text that begins with a dash', () => {
  it('a Markdown list', async () => {
    await sentAs(['team', 'send', 'alice', '- item one\n- item two'], '- item one\n- item two');
  });

  it('"-1 is wrong" and "--force is needed", with options after them', async () => {
    await sentAs(['team', 'send', 'alice', '-1 is wrong', '--summary', 'a number'], '-1 is wrong');
    await sentAs(['team', 'send', 'alice', '--force is needed'], '--force is needed');
  });

  it('as an option value: --summary "- a list"', async () => {
    await sentAs(['team', 'send', 'alice', 'body', '--summary', '- a list'], 'body');
    expect((await entries()).at(-1)?.summary).toBe('- a list');
  });

  it('after --, anything is a positional: a lone word, an option spelling, both positionals', async () => {
    await sentAs(['team', 'send', 'alice', '--', 'hi'], 'hi');
    await sentAs(['team', 'send', 'alice', '--summary', 's', '--', '--not-an-option'], '--not-an-option');
    await sentAs(['team', 'send', '--', 'alice', '-x'], '-x');
    await sentAs(['team', 'broadcast', '--', '-all hands'], '-all hands');
  });

  it('an option spelling with a value (`--summary=two words`) is still an option', async () => {
    await sentAs(['team', 'send', 'alice', 'text', '--summary=two words'], 'text');
    expect((await entries()).at(-1)?.summary).toBe('two words');
  });

  it('what is still refused names the argument as typed', async () => {
    const extra = await mailroom(root, 'team', 'send', 'alice', 'one', '- two');
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('USAGE');
    expect(extra.stderr).toContain('- two');
    expect(extra.stderr).not.toContain('\u0000');
    const late = await mailroom(root, 'team', 'send', 'alice', '--', 'a', 'b');
    expect(late.code).toBe(2);
    expect(late.stderr).toContain('"b"');
    expect(await texts()).not.toContain('a');
  });

  it('lease acquire takes paths after --', async () => {
    const run = await mailroom(root, 'lease', 'acquire', '--as', 'alice', '--', '-odd name.txt');
    expect(run.code, run.stderr).toBe(0);
    const list = await mailroomOk(root, 'lease', 'list', '--json');
    expect(list.stdout).toContain('-odd name.txt');
  });

  it('--get-yargs-completions, --help and --json after -- are texts, not modes', async () => {
    await sentAs(['team', 'send', 'alice', '--', '--get-yargs-completions'], '--get-yargs-completions');
    await sentAs(['team', 'send', 'alice', '--', '--help'], '--help');
    const run = await mailroom(root, 'team', 'send', 'bob', '--', '--json');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('bob');
    expect(() => JSON.parse(run.stderr) as unknown).toThrow();
    expect(run.stdout).toBe('');
  });

  it('an option before -- does not take what follows it', async () => {
    const add = await mailroom(root, 'task', 'add', '--metadata', 'k=v', '--', 'title after dashes', '--json');
    expect(add.code, add.stderr).toBe(2);
    const ok = await mailroomOk(root, '--json', 'task', 'add', '--metadata', 'k=v', '--', '-dash title');
    const task = JSON.parse(ok.stdout) as { subject: string; metadata?: Record<string, unknown> };
    expect(task.subject).toBe('-dash title');
    expect(task.metadata).toEqual({ k: 'v' });
    const lease = await mailroom(root, 'lease', 'acquire', '--as', 'alice', '--reason', 'r', '--', '-a.txt');
    expect(lease.code, lease.stderr).toBe(0);
    expect((await mailroomOk(root, 'lease', 'list', '--json')).stdout).toContain('-a.txt');
  });

  it('refusals name what was typed: a number option, a stray "-" after --', async () => {
    const tail = await mailroom(root, 'log', '--tail', '-1 x');
    expect(tail.code).toBe(2);
    expect(tail.stderr).toContain('"-1 x"');
    const stray = await mailroom(root, 'task', 'add', 'T3', '--', '-', 'x');
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('unexpected argument');
    expect(stray.stderr).not.toContain('unknown option');
    for (const r of [tail, stray]) expect(r.stderr).not.toContain('\u0000');
  });
});


describe('a text that is one of the global flags', () => {
  // A new user's trial (session 16): `team send alice "--json"` (the shell drops the quotes) read
  // --json as the flag, so the answer was a JSON error saying only that the text was empty. It stays
  // the flag (docs/cli.md: options are read before `--`), and the refusal now says how to send it.
  it('team send alice "--json": the flag, and the refusal says to put the text after --; nothing sent', async () => {
    const before = await texts();
    const run = await mailroom(root, 'team', 'send', 'alice', '--json');
    expect(run.code).toBe(2);
    const error = (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('MESSAGE_INVALID');
    expect(error.message).toContain('"--json" was read as an option');
    expect(error.message).toContain('`-- --json`');
    expect(await texts()).toEqual(before);
    await sentAs(['team', 'send', 'alice', '--', '--json'], '--json');
  });

  it('task add "--json" and team ask alice "--json" say the same; nothing added', async () => {
    const tasks = async () => (JSON.parse((await mailroomOk(root, 'task', 'list', '--json')).stdout) as unknown[]).length;
    const [taskCount, sentCount] = [await tasks(), (await texts()).length];
    for (const args of [['task', 'add', '--json'], ['team', 'ask', 'alice', '--json', '--timeout', '1s']]) {
      const run = await mailroom(root, ...args);
      expect(run.code, args.join(' ')).toBe(2);
      const message = (JSON.parse(run.stderr) as { error: { message: string } }).error.message;
      expect(message, args.join(' ')).toContain('"--json" was read as an option');
      expect(message, args.join(' ')).toContain('`-- --json`');
    }
    expect(await tasks()).toBe(taskCount);
    expect((await texts()).length).toBe(sentCount);
  });

  it('team send alice with no text at all: the refusal says how to give one, with no option hint', async () => {
    const run = await mailroom(root, 'team', 'send', 'alice');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('MESSAGE_INVALID');
    expect(run.stderr).toContain('give the text to send');
    expect(run.stderr).not.toContain('read as an option');
  });
});
