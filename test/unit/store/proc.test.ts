/**
 * Reading a process's identity from /proc/<pid>/stat: the fields after a command name that holds
 * spaces and parentheses, a running process (its group and a start time that stays put), a zombie
 * (exited, not reaped: counted as exited) and a pid no process has.
 */
import { execFileSync, spawn } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { parseProcStat, probeProcess } from '../../../src/store/fs/proc.js';
import { until } from '../../helpers/runtime.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

it('counts fields after the last parenthesis of the command name', () => {
  const line = '4242 (a) b (c) S 1 4240 4240 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 98765 1000 50 18446744073709551615';
  expect(parseProcStat(line)).toEqual({ state: 'S', pgid: 4240, startTime: 98765 });
  expect(parseProcStat('4242 (sh) S 1')).toBeUndefined();
  expect(parseProcStat('not a stat line')).toBeUndefined();
});

it('reads a running process: its process group and a stable start time', async () => {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  started.push(child.pid!);
  const probe = await probeProcess(child.pid!);
  expect(probe).toMatchObject({ kind: 'running', pgid: child.pid });
  const self = await probeProcess(process.pid);
  expect(self.kind === 'running' && self.pgid).toBe(Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim()));
  expect(await probeProcess(process.pid)).toEqual(self);
});

it('treats a zombie and an unused pid as exited', async () => {
  // `sleep 0` exits at once; its parent then execs `sleep 30`, which never reaps it: a zombie.
  const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(parent.pid!);
  let out = '';
  parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const zombie = await until(() => Number(out.trim()) || undefined, 5_000, 'the zombie pid');
  expect(await until(async () => ((await probeProcess(zombie)).kind === 'exited' ? true : undefined), 5_000, 'sleep 0 to exit')).toBe(true);
  expect(execFileSync('ps', ['-o', 'stat=', '-p', String(zombie)], { encoding: 'utf8' }).trim()).toMatch(/^Z/);
  expect(await probeProcess(4_194_305)).toEqual({ kind: 'exited' }); // above the largest pid_max
});
