/**
 * Every snapshot the real Claude Code wrote — 2.1.109 and 2.1.332 — through the real CLI binary,
 * each on its own copy in a temp dir, with no `--team`: `team show`, `task list`, `inbox` (every
 * member and every inbox file), `doctor` and `watch --json`. The commands see exactly the files
 * (the live team only, never a `*.deleted-<uuid>` tombstone), change no byte of Claude Code's
 * files, and `watch` on the team 2.1.332 is removing (snapshot 5) says so and ends by itself.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TempDir } from '../helpers/temp-dir.js';
import { REFERENCE_2_1_109, REFERENCE_2_1_332, SNAPSHOTS, SNAPSHOTS_2_1_332, cleanEnv, copyTree, listFiles, mailroom, readJson, snapshotBytes } from '../helpers/store-files.js';
import { startCli } from '../helpers/line-child.js';
import type { CliRun } from '../helpers/cli.js';

interface Config {
  name: string;
  leadAgentId: string;
  members: { name: string; agentId: string }[];
}
interface TaskFile {
  id: string;
}

const CASES = [
  ...SNAPSHOTS.map((s) => ({ version: '2.1.109', snapshot: s, source: join(REFERENCE_2_1_109, s), team: 'compat', removing: false })),
  ...SNAPSHOTS_2_1_332.map((s) => ({
    version: '2.1.332',
    snapshot: s,
    source: join(REFERENCE_2_1_332, s),
    team: s === '5-cleanup-tombstone' ? 'session-0e1bac49' : 'session-19f15a79',
    removing: s === '5-cleanup-tombstone',
  })),
];

/** Files outside mailroom's own `<root>/mailroom/` (journal written by watch), with their bytes. */
async function claudeFiles(root: string): Promise<Map<string, Buffer>> {
  const all = await snapshotBytes(root);
  for (const key of [...all.keys()]) if (key.startsWith('mailroom/')) all.delete(key);
  return all;
}

async function inboxFiles(root: string, team: string): Promise<string[]> {
  const files = await readdir(join(root, 'teams', team, 'inboxes')).catch(() => []);
  return files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
}

async function taskFiles(root: string, team: string): Promise<TaskFile[]> {
  const names = (await readdir(join(root, 'tasks', team)).catch(() => [])).filter((f) => /^\d+\.json$/.test(f));
  const tasks = await Promise.all(names.map((f) => readJson<TaskFile>(join(root, 'tasks', team, f))));
  return tasks.sort((a, b) => Number(a.id) - Number(b.id));
}

function json<T>(run: CliRun): T {
  if (run.code !== 0) throw new Error(`exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

describe.each(CASES)('Claude Code $version snapshot $snapshot through the CLI binary', ({ source, team, removing }) => {
  let dir: TempDir;
  let root: string;
  let before: Map<string, Buffer>;
  let config: Config;
  let agents: string[];
  const runs = new Map<string, CliRun>();
  let watchLines: string[] = [];
  let watchCode: number | null = null;
  let watchStderr = '';

  beforeAll(async () => {
    dir = await copyTree(source);
    root = dir.path;
    before = await claudeFiles(root);
    config = await readJson<Config>(join(root, 'teams', team, 'config.json'));
    agents = [...new Set([...config.members.map((m) => m.name), ...(await inboxFiles(root, team))])];
    const commands = [['team', 'show', '--json'], ['task', 'list', '--json'], ['doctor', '--json'], ...agents.map((a) => ['inbox', a, '--json'])];
    const watch = startCli(['--root', root, 'watch', '--json'], cleanEnv());
    const results = await Promise.all(commands.map((c) => mailroom(root, ...c)));
    commands.forEach((c, i) => runs.set(c.join(' '), results[i]!));
    if (removing) {
      await watch.waitForLine((l) => l.includes('"kind":"team"'));
      watchCode = await watch.exited;
    } else {
      await watch.waitForLine((l) => l.includes('"kind":"ready"'));
      watchCode = await watch.stop();
    }
    watchLines = watch.lines();
    watchStderr = watch.stderr();
  });
  afterAll(async () => {
    await dir.cleanup();
  });

  it('team show finds the one live team and shows its config as stored', async () => {
    const shown = json<{ config: Config; members: { name: string; isLead: boolean }[] }>(runs.get('team show --json')!);
    expect(shown.config).toEqual(config);
    expect(shown.members.map((m) => [m.name, m.isLead])).toEqual(config.members.map((m) => [m.name, m.agentId === config.leadAgentId]));
  });

  it('task list lists every task file in numeric order', async () => {
    const listed = json<{ task: TaskFile }[]>(runs.get('task list --json')!);
    expect(listed.map((v) => v.task)).toEqual(await taskFiles(root, team));
  });

  it('inbox shows every entry of every member and inbox file, as stored', async () => {
    for (const agent of agents) {
      const view = json<{ agent: string; messages: { entry: unknown }[] }>(runs.get(`inbox ${agent} --json`)!);
      const file = (await inboxFiles(root, team)).includes(agent) ? await readJson<unknown[]>(join(root, 'teams', team, 'inboxes', `${agent}.json`)) : [];
      expect(view.agent).toBe(agent);
      expect(view.messages.map((m) => m.entry)).toEqual(file);
    }
  });

  it('doctor finds no problem', async () => {
    const report = json<{ problems: number; findings: { severity: string; team?: string; path?: string }[] }>(runs.get('doctor --json')!);
    expect(report.problems).toBe(0);
    for (const f of report.findings) expect(`${f.team ?? ''}${f.path ?? ''}`).not.toContain('.deleted-');
  });

  it('watch --json starts with the roster and board, and ends by itself on a team being removed', async () => {
    const records = watchLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const ready = records[0]!;
    expect(ready).toMatchObject({ kind: 'ready', team });
    expect((ready.members as { name: string }[]).map((m) => m.name)).toEqual(config.members.map((m) => m.name));
    const tasks = await taskFiles(root, team);
    expect(Object.values(ready.tasks as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(tasks.length);
    if (removing) {
      expect(records.slice(1)).toEqual([expect.objectContaining({ kind: 'team', action: 'removed', final: true, team })]);
    } else {
      expect(records).toHaveLength(1);
    }
    expect(watchCode).toBe(0);
    expect(watchStderr).toBe('');
  });

  it("changes no byte of Claude Code's files and creates none", async () => {
    expect(await claudeFiles(root)).toEqual(before);
    if (removing) expect((await listFiles(root, { dirs: true })).filter((p) => p.startsWith('tasks'))).toEqual([]);
  });
});
