/**
 * `task show` prints the task's fencing token once it was claimed through mailroom, as docs/cli.md
 * ("Tasks") says — it printed every other field but that one (new-user trial, session 19: only
 * `--json` had it). Real CLI processes.
 */
import { describe, expect, it } from 'vitest';
import { cliRootForFile, mailroomOk } from '../helpers/store-files.js';

const root = cliRootForFile(['team', 'create', 'demo'], ['team', 'spawn', 'bob'], ['task', 'add', 'Check the build'], ['task', 'add', 'Never claimed']);

describe('task show and the fencing token', () => {
  it('a claimed task: its token, the same as --json', async () => {
    await mailroomOk(root(), 'task', 'claim', '1', '--as', 'bob');
    const json = JSON.parse((await mailroomOk(root(), 'task', 'show', '1', '--json')).stdout) as { task?: { fencingToken?: number }; fencingToken?: number };
    const token = json.task?.fencingToken ?? json.fencingToken;
    expect(token).toBeGreaterThan(0);
    const text = (await mailroomOk(root(), 'task', 'show', '1')).stdout;
    expect(text).toContain(`  fencing:     ${token} (token of the latest claim; an owner's writes carry it)\n`);
  });

  it('a task never claimed through mailroom: no such line', async () => {
    expect((await mailroomOk(root(), 'task', 'show', '2')).stdout).not.toContain('fencing:');
  });
});
