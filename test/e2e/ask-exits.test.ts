/**
 * `mailroom team ask` ends as soon as it has printed the reply (issue 24 item 5): when the reply
 * is written to stdout no timer is pending (the ask's deadline, a watch throttle), and the process
 * exits by itself with the ask's deadline of ten minutes still ahead. Checked by events: what is active at the write (Node's
 * getActiveResourcesInfo, from a probe preloaded with --require) and the exit itself.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const cli = (...args: string[]) => runCli(['--root', dir.path, '--team', 'demo', ...args]);

beforeEach(async () => {
  dir = await makeTempDir('mailroom-ask-exits-');
  expect((await runCli(['--root', dir.path, 'team', 'create', 'demo'])).code).toBe(0);
});
afterEach(async () => {
  await cli('team', 'stop', 'bob', '--force');
  await dir.cleanup();
});

/**
 * Timers pending at the write would keep the process alive after it printed (the ask's deadline,
 * a watch throttle). The store's file watches are still open then: the CLI closes its stores right
 * after printing, and the exit below shows they did close (a watch never ends on its own).
 */
const LINGERING = ['Timeout', 'Immediate'];

it('exits once the reply is printed: no timer pending at the write, and the process ends by itself', async () => {
  const script = join(dir.path, 'bob.json');
  await writeFile(script, JSON.stringify([{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'the answer' } }] }]));
  expect((await cli('team', 'spawn', 'bob', '--backend', 'process', '--model', `scripted:${script}`)).code).toBe(0);
  const probe = join(dir.path, 'probe.cjs');
  await writeFile(
    probe,
    // The CLI prints with fs.writeSync(1, …) (src/cli/output.ts); through process.stdout where a stream is in use.
    "const fs = require('fs'); const ws = fs.writeSync; const w = process.stdout.write.bind(process.stdout); let seen = false; const note = () => { if (!seen) { seen = true; ws(2, 'ACTIVE ' + JSON.stringify(process.getActiveResourcesInfo()) + '\\n'); } }; process.stdout.write = (c, ...r) => { note(); return w(c, ...r); }; fs.writeSync = (fd, ...a) => { if (fd === 1) note(); return ws(fd, ...a); };\n",
  );
  const child = spawn(process.execPath, ['--require', probe, BIN, '--root', dir.path, '--team', 'demo', 'team', 'ask', 'bob', 'What is it?', '--timeout', '10m'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // The event: the process exits by itself, with the ask's 10-minute deadline far ahead.
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, stderr).toBe(0);
  expect(stdout).toBe('the answer\n');
  const active = JSON.parse(/^ACTIVE (.*)$/m.exec(stderr)?.[1] ?? 'null') as string[] | null;
  expect(active).not.toBeNull();
  expect(active!.filter((r) => LINGERING.includes(r))).toEqual([]);
}, 120_000);
