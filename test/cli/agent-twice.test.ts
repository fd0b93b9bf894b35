/**
 * One runtime per member: `mailroom agent <name>` while the same teammate already runs as a
 * recorded process — detached (`team spawn --backend process`) or another foreground agent — is
 * refused with TEAMMATE_RUNNING (exit 4), as a second `startProcessTeammate` is: two runtimes on one
 * inbox would both consume and answer every message. A foreground agent records itself in
 * `teams/<team>/processes/<name>.json` and removes the record when it exits.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownIdentity } from '../../src/core/processes/process-identity.js';
import { startProcessTeammate } from '../../src/runtime/process/start.js';
import { localHostStore, openFsStores } from '../../src/store/open.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { until } from '../helpers/runtime.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { cleanEnv, mailroom, mailroomOk } from '../helpers/store-files.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await mailroomOk(dir.path, 'team', 'create', 'demo');
});
afterEach(async () => {
  await mailroom(dir.path, 'team', 'stop', 'alice', '--force');
  await dir.cleanup();
});

it('refuses a foreground agent for a teammate whose process is alive', async () => {
  await mailroomOk(dir.path, 'team', 'spawn', 'alice', '--backend', 'process');
  const record = await openFsStores(dir.path).host.readProcessRecord('demo', 'alice');
  expect(record).toMatchObject({ startTime: expect.any(Number), logFile: expect.any(String) });
  const run = await mailroom(dir.path, 'agent', 'alice');
  expect(run.code, run.stderr).toBe(4);
  expect(run.stderr).toContain('TEAMMATE_RUNNING');
  expect(run.stderr).toContain(String(record!.pid));
  expect(run.stdout).not.toContain('started');
});

describe('a foreground agent registers itself', () => {
  const agents: LineChild[] = [];
  afterEach(async () => {
    for (const a of agents.splice(0)) await a.stop();
  });

  function foreground(): LineChild {
    const agent = startCli(['agent', 'alice', '--root', dir.path, '--team', 'demo'], cleanEnv());
    agents.push(agent);
    return agent;
  }

  it('refuses a second agent for the member, foreground or detached, naming the pid and how to stop it', async () => {
    await mailroomOk(dir.path, 'team', 'spawn', 'alice');
    const first = foreground();
    await first.waitForLine((l) => l.includes('alice: started'));
    const store = openFsStores(dir.path);
    const record = await store.host.readProcessRecord('demo', 'alice');
    expect(record).toMatchObject({ team: 'demo', agent: 'alice', pid: first.proc.pid, startTime: expect.any(Number) });
    expect(record?.logFile).toBeUndefined();

    const second = await mailroom(dir.path, 'agent', 'alice', '--team', 'demo');
    expect(second.code, second.stderr).toBe(4);
    expect(second.stderr).toContain(`TEAMMATE_RUNNING: alice already runs as process ${first.proc.pid} (in the foreground`);
    expect(second.stderr).toContain('Stop it first: `mailroom --root');
    expect(second.stderr).toContain('--team demo team stop alice`');
    expect(second.stdout).not.toContain('started');
    await expect(startProcessTeammate({ root: store, team: 'demo', name: 'alice' })).rejects.toMatchObject({ code: 'TEAMMATE_RUNNING', details: { pid: first.proc.pid } });
    expect((await store.host.readProcessRecord('demo', 'alice'))?.pid).toBe(first.proc.pid);

    const show = JSON.parse((await mailroomOk(dir.path, 'team', 'show', '--team', 'demo', '--json')).stdout) as { config: { members: Array<{ name: string; backendType?: string; tmuxPaneId?: string }> } };
    expect(show.config.members.find((m) => m.name === 'alice')).toMatchObject({ tmuxPaneId: '' }); // config.json is not touched

    const stop = await mailroom(dir.path, 'team', 'stop', 'alice', '--team', 'demo');
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toContain('alice approved the shutdown');
    expect(await first.exited).toBe(0);
    expect(await store.host.readProcessRecord('demo', 'alice')).toBeUndefined();
  });

  it('removes its record on a clean exit; a SIGKILLed one leaves a stale record the next agent replaces', async () => {
    await mailroomOk(dir.path, 'team', 'spawn', 'alice');
    const store = openFsStores(dir.path);
    const first = foreground();
    await first.waitForLine((l) => l.includes('alice: started'));
    expect(await first.stop()).toBe(0); // SIGTERM
    expect(await store.host.readProcessRecord('demo', 'alice')).toBeUndefined();

    const killed = foreground();
    await killed.waitForLine((l) => l.includes('alice: started'));
    killed.proc.kill('SIGKILL');
    await killed.exited;
    expect((await store.host.readProcessRecord('demo', 'alice'))?.pid).toBe(killed.proc.pid);

    const next = foreground();
    await next.waitForLine((l) => l.includes('alice: started'));
    expect((await store.host.readProcessRecord('demo', 'alice'))?.pid).toBe(next.proc.pid);
  });

  it('treats a record whose pid now belongs to another process (other start time) as stale', async () => {
    await mailroomOk(dir.path, 'team', 'spawn', 'alice');
    const store = openFsStores(dir.path);
    const me = await ownIdentity(localHostStore()); // a live pid, recorded with a start time it does not have
    await store.host.writeProcessRecord('demo', 'alice', { team: 'demo', agent: 'alice', pid: me.pid, startTime: me.startTime! + 1, startedAt: Date.now(), argv: [] });
    const agent = foreground();
    await agent.waitForLine((l) => l.includes('alice: started'));
    expect((await store.host.readProcessRecord('demo', 'alice'))?.pid).toBe(agent.proc.pid);
  });

  it('lets exactly one of two agents started at once run', async () => {
    await mailroomOk(dir.path, 'team', 'spawn', 'alice');
    const pair = [foreground(), foreground()];
    const codes: Array<number | null | undefined> = [undefined, undefined];
    pair.forEach((a, i) => void a.exited.then((code) => (codes[i] = code)));
    const started = (a: LineChild) => a.lines().some((l) => l.includes('alice: started'));
    await until(() => pair.every((a, i) => started(a) || codes[i] !== undefined), 15_000, 'both agents to start or exit');
    expect(pair.map(started).sort()).toEqual([false, true]);
    const winner = pair.find(started)!;
    const loser = pair.find((a) => a !== winner)!;
    expect(await loser.exited).toBe(4);
    expect(loser.stderr()).toContain(`already runs as process ${winner.proc.pid}`);
    expect((await openFsStores(dir.path).host.readProcessRecord('demo', 'alice'))?.pid).toBe(winner.proc.pid);
  });
});
