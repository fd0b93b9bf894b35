#!/usr/bin/env node
/**
 * Runs several `mailroom` commands one after another in ONE process, through the same entry the
 * binary uses (`main()` of the bundle dist/mailroom.cjs, loaded as bin/mailroom.js loads it). Each
 * command gets its own exit code and captured stdout/stderr. Used where a test needs many CLI
 * runs per process (case 01: "eight processes each send twenty times"), so process start-up does
 * not dominate the run time on a 2-core machine.
 *
 * Input (argv[2]): JSON `{ commands: string[][], barrier?: { dir: string, parties: number } }`.
 * With `barrier`, every process of the group waits before command i until all `parties` processes
 * have reached command i, so they run it at the same moment.
 * Output (stdout): JSON array of `{ code, stdout, stderr }`, one per command.
 */
import fs from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCli } from '../../dist/cli/launch.cjs';

const { main } = loadCli();

const { commands, barrier } = JSON.parse(process.argv[2]);
const realOut = process.stdout.write.bind(process.stdout);

async function waitAtBarrier(round) {
  if (!barrier) return;
  await writeFile(join(barrier.dir, `${round}-${process.pid}`), '');
  for (;;) {
    const arrived = (await readdir(barrier.dir)).filter((f) => f.startsWith(`${round}-`)).length;
    if (arrived >= barrier.parties) return;
    await new Promise((r) => setTimeout(r, 1));
  }
}

const realWriteSync = fs.writeSync;

async function runOne(argv) {
  const out = [];
  const err = [];
  process.stdout.write = (chunk) => (out.push(String(chunk)), true);
  process.stderr.write = (chunk) => (err.push(String(chunk)), true);
  // The CLI prints a result to descriptor 1 or 2 directly (src/cli/output.ts writeOut).
  fs.writeSync = (fd, data, offset = 0, ...rest) => {
    if (fd !== 1 && fd !== 2) return realWriteSync(fd, data, offset, ...rest);
    const bytes = Buffer.from(typeof data === 'string' ? data : data.subarray(offset));
    (fd === 1 ? out : err).push(bytes.toString());
    return typeof data === 'string' ? Buffer.byteLength(data) : data.length - offset;
  };
  try {
    const code = await main(argv);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    delete process.stdout.write;
    delete process.stderr.write;
    fs.writeSync = realWriteSync;
  }
}

const results = [];
for (let i = 0; i < commands.length; i++) {
  await waitAtBarrier(i);
  results.push(await runOne(commands[i]));
}
realOut(JSON.stringify(results));
