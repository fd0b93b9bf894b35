/**
 * Every read command of the CLI on files written in Claude Code's format: the hand-made fixture
 * `fixtures/claude-code/` and the five snapshots the real Claude Code 2.1.109 wrote
 * (fixtures/claude-code-2.1.109, copied from ../shared/reference). Reads never change a byte.
 *
 * The commands of one suite run in one process through the CLI's entry `main()` (cli-batch), so
 * ~70 reads do not pay ~70 Node start-ups; the case tests run the binary itself.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TempDir } from '../helpers/temp-dir.js';
import { runCliBatch } from '../helpers/cli-batch.js';
import { FIXTURES, REFERENCE_2_1_109, SNAPSHOTS, copyTree, readJson, snapshotBytes } from '../helpers/store-files.js';
import type { CliRun } from '../helpers/cli.js';

interface Entry {
  from: string;
  text: string;
  timestamp: string;
  read?: boolean;
  summary?: string;
}
interface InboxJson {
  agent: string;
  messages: { index: number; entry: Entry; parsed: { kind: string; message?: { type: string } } }[];
}
interface TaskFile {
  id: string;
  subject: string;
  status: string;
  owner?: string;
  blockedBy: string[];
}

/** Runs every command on `root` once (in one process) and serves the results by command line. */
function reader(root: () => string) {
  const results = new Map<string, CliRun>();
  return {
    async run(commands: string[][]): Promise<void> {
      const runs = await runCliBatch(commands.map((c) => ['--root', root(), ...c]));
      commands.forEach((c, i) => results.set(c.join(' '), runs[i]!));
    },
    ok(...args: string[]): CliRun {
      const run = results.get(args.join(' '));
      if (!run) throw new Error(`not run: ${args.join(' ')}`);
      if (run.code !== 0) throw new Error(`mailroom ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
      return run;
    },
  };
}

async function inboxNames(root: string, team: string): Promise<string[]> {
  const files = await readdir(join(root, 'teams', team, 'inboxes')).catch(() => []);
  return files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}

async function taskFiles(root: string, team: string): Promise<TaskFile[]> {
  const names = (await readdir(join(root, 'tasks', team))).filter((f) => /^\d+\.json$/.test(f));
  const tasks = await Promise.all(names.map((f) => readJson<TaskFile>(join(root, 'tasks', team, f))));
  return tasks.sort((a, b) => Number(a.id) - Number(b.id));
}

describe('fixtures/claude-code (lead + two tmux teammates)', () => {
  let dir: TempDir;
  let root: string;
  let before: Map<string, Buffer>;
  const r = reader(() => root);

  beforeAll(async () => {
    dir = await copyTree(join(FIXTURES, 'claude-code'));
    root = dir.path;
    before = await snapshotBytes(root);
    const perAgent = ['alice', 'bob'].flatMap((a) => [['inbox', a], ['inbox', a, '--raw'], ['inbox', a, '--json']]);
    await r.run([
      ['team', 'list'],
      ['team', 'list', '--json'],
      ['team', 'show'],
      ['team', 'show', 'demo', '--json'],
      ['inbox'],
      ['inbox', 'team-lead', '--raw'],
      ['inbox', '--json'],
      ['inbox', '--unread', '--json'],
      ...perAgent,
      ['task', 'list'],
      ['task', 'list', '--json'],
      ['task', 'list', '--ready', '--json'],
      ['task', 'show', '3'],
      ['task', 'show', '5', '--json'],
    ]);
  });
  afterAll(async () => {
    expect(await snapshotBytes(root)).toEqual(before);
    await dir.cleanup();
  });

  it('team list and team show', async () => {
    const [list, listJson, show, showJson] = [
      r.ok('team', 'list'),
      r.ok('team', 'list', '--json'),
      r.ok('team', 'show'),
      r.ok('team', 'show', 'demo', '--json'),
    ];
    expect(list.stdout).toBe('demo\n');
    expect(JSON.parse(listJson.stdout)).toEqual(['demo']);
    expect(show.stdout).toContain('Team demo — Parser rewrite: lead plus two tmux teammates');
    expect(show.stdout).toMatch(/alice\s+teammate, claude-sonnet-4-6, tmux, blue — no heartbeat: mailroom does not run it, 0 unread/);
    expect(show.stdout).toMatch(/bob\s+teammate, claude-sonnet-4-6, tmux, green, active — no heartbeat: mailroom does not run it, 1 unread/);
    expect(show.stdout).toContain('Tasks: 2 pending, 1 in progress, 1 completed');
    const summary = JSON.parse(showJson.stdout) as { config: unknown; members: { name: string; unread: number; isLead: boolean }[]; tasks: unknown };
    expect(summary.config).toEqual(await readJson(join(root, 'teams/demo/config.json')));
    expect(summary.members.map((m) => [m.name, m.isLead, m.unread])).toEqual([
      ['team-lead', true, 4],
      ['alice', false, 0],
      ['bob', false, 1],
    ]);
    expect(summary.tasks).toEqual({ pending: 2, in_progress: 1, completed: 1 });
  });

  it("inbox of the lead: plain, --raw, --json, --unread", async () => {
    const [plain, raw, json, unread] = [
      r.ok('inbox'),
      r.ok('inbox', 'team-lead', '--raw'),
      r.ok('inbox', '--json'),
      r.ok('inbox', '--unread', '--json'),
    ];
    const file = await readJson<Entry[]>(join(root, 'teams/demo/inboxes/team-lead.json'));
    const lines = plain.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe('1. 2026-01-01T00:04:10.105Z alice [Tokenizer finished with tests]: Tokenizer done: src/tokenize.ts, 14 tests passing.');
    expect(lines[1]).toBe('2. 2026-01-01T00:04:12.331Z alice: [idle: available] completed #1 — [to team-lead] Tokenizer finished with tests');
    expect(lines[4]).toBe('5. 2026-01-01T00:06:11.002Z alice (unread): [shutdown approved shutdown-1767225970000@alice]');
    expect(lines[5]).toContain('bob (unread) [Parser skeleton compiles]: Parser skeleton compiles; starting on error recovery.');
    const rawLines = raw.stdout.trimEnd().split('\n');
    file.forEach((e, i) => expect(rawLines[i]).toContain(`${e.from}${e.read ? '' : ' (unread)'}${e.summary ? ` [${e.summary}]` : ''}: ${e.text}`));
    const view = JSON.parse(json.stdout) as InboxJson;
    expect(view.agent).toBe('team-lead');
    expect(view.messages.map((m) => m.entry)).toEqual(file);
    expect(view.messages.map((m) => m.parsed.message?.type ?? m.parsed.kind)).toEqual([
      'plain',
      'idle_notification',
      'plain',
      'idle_notification',
      'shutdown_approved',
      'plain',
    ]);
    expect((JSON.parse(unread.stdout) as InboxJson).messages.map((m) => m.index)).toEqual([2, 3, 4, 5]);
  });

  it.each(['alice', 'bob'])('inbox %s: plain, --raw, --json', async (agent) => {
    const [plain, raw, json] = [
      r.ok('inbox', agent),
      r.ok('inbox', agent, '--raw'),
      r.ok('inbox', agent, '--json'),
    ];
    const file = await readJson<Entry[]>(join(root, `teams/demo/inboxes/${agent}.json`));
    expect(plain.stdout.trimEnd().split('\n')).toHaveLength(file.length);
    expect(plain.stdout).toContain('[task assigned] #');
    expect(raw.stdout).toContain('{"type":"task_assignment"');
    expect((JSON.parse(json.stdout) as InboxJson).messages.map((m) => m.entry)).toEqual(file);
  });

  it('task list (numeric order, blocked and ready) and task show', async () => {
    const [list, listJson, ready, show3, show5] = [
      r.ok('task', 'list'),
      r.ok('task', 'list', '--json'),
      r.ok('task', 'list', '--ready', '--json'),
      r.ok('task', 'show', '3'),
      r.ok('task', 'show', '5', '--json'),
    ];
    expect(list.stdout).toBe(
      [
        'ID  STATUS       OWNER  BOARD          SUBJECT',
        '#1  completed    alice  -              Write the tokenizer',
        '#2  in_progress  bob    -              Write the parser',
        '#3  pending      -      blocked by #2  Write parser tests',
        '#5  pending      -      ready          Benchmark the tokenizer',
        '',
      ].join('\n'),
    );
    const files = await taskFiles(root, 'demo');
    expect((JSON.parse(listJson.stdout) as { task: TaskFile }[]).map((v) => v.task)).toEqual(files);
    expect((JSON.parse(ready.stdout) as { task: TaskFile }[]).map((v) => v.task.id)).toEqual(['5']);
    expect(show3.stdout).toContain('blockedBy:   #1, #2 (open: #2)');
    expect((JSON.parse(show5.stdout) as { task: TaskFile }).task).toEqual(files.find((t) => t.id === '5'));
  });
});

describe.each(SNAPSHOTS)('Claude Code 2.1.109 snapshot %s', (snapshot) => {
  let dir: TempDir;
  let root: string;
  let before: Map<string, Buffer>;
  const r = reader(() => root);

  beforeAll(async () => {
    dir = await copyTree(join(REFERENCE_2_1_109, snapshot));
    root = dir.path;
    before = await snapshotBytes(root);
    const config = await readJson<{ members: { name: string }[] }>(join(root, 'teams/compat/config.json'));
    const agents = [...new Set([...config.members.map((m) => m.name), ...(await inboxNames(root, 'compat'))])];
    await r.run([
      ['team', 'list', '--json'],
      ['team', 'show'],
      ['team', 'show', '--json'],
      ['task', 'list'],
      ['task', 'list', '--json'],
      ...(await taskFiles(root, 'compat')).map((t) => ['task', 'show', t.id, '--json']),
      ...agents.flatMap((a) => [['inbox', a], ['inbox', a, '--raw'], ['inbox', a, '--json']]),
    ]);
  });
  afterAll(async () => {
    expect(await snapshotBytes(root)).toEqual(before);
    await dir.cleanup();
  });

  it('team list, team show, task list, task show', async () => {
    const config = await readJson<{ members: { name: string }[] }>(join(root, 'teams/compat/config.json'));
    const files = await taskFiles(root, 'compat');
    const [list, show, showJson, tasks, tasksJson, ...shown] = [
      r.ok('team', 'list', '--json'),
      r.ok('team', 'show'),
      r.ok('team', 'show', '--json'),
      r.ok('task', 'list'),
      r.ok('task', 'list', '--json'),
      ...files.map((t) => r.ok('task', 'show', t.id, '--json')),
    ];
    expect(JSON.parse(list.stdout)).toEqual(['compat']);
    expect(show.stdout).toContain('Team compat — Compatibility fixture team (scenario A)');
    const summary = JSON.parse(showJson.stdout) as { config: unknown; members: { name: string }[]; tasks: Record<string, number> };
    expect(summary.config).toEqual(config);
    expect(summary.members.map((m) => m.name)).toEqual(config.members.map((m) => m.name));
    expect(Object.values(summary.tasks).reduce((a, b) => a + b, 0)).toBe(files.length);
    expect(tasks.stdout.trimEnd().split('\n').slice(1).map((l) => l.split(' ')[0])).toEqual(files.map((t) => `#${t.id}`));
    expect((JSON.parse(tasksJson.stdout) as { task: TaskFile }[]).map((v) => v.task)).toEqual(files);
    expect(shown.map((r) => (JSON.parse(r.stdout) as { task: TaskFile }).task)).toEqual(files);
  });

  it('inbox of every member and every inbox file: plain, --raw, --json', async () => {
    const config = await readJson<{ members: { name: string }[] }>(join(root, 'teams/compat/config.json'));
    const withInbox = await inboxNames(root, 'compat');
    for (const member of config.members.filter((m) => !withInbox.includes(m.name))) {
      expect(r.ok('inbox', member.name).stdout).toBe(`(no messages for ${member.name})\n`);
    }
    for (const agent of withInbox) {
      const file = await readJson<Entry[]>(join(root, `teams/compat/inboxes/${agent}.json`));
      const [plain, raw, json] = [
        r.ok('inbox', agent),
        r.ok('inbox', agent, '--raw'),
        r.ok('inbox', agent, '--json'),
      ];
      expect(plain.stdout.trimEnd().split('\n')).toHaveLength(file.length);
      for (const e of file) expect(raw.stdout).toContain(`: ${e.text}\n`);
      const view = JSON.parse(json.stdout) as InboxJson;
      expect(view.messages.map((m) => m.entry)).toEqual(file);
      expect(view.messages.every((m) => m.parsed.kind === 'plain' || m.parsed.kind === 'structured')).toBe(true);
    }
  });
});
