#!/usr/bin/env node
/**
 * A reader that never locks, like Claude Code's pollers: every `intervalMs` it reads and
 * JSON-parses `config.json` and every `*.json` inbox of a team, until `<stopFile>` exists.
 * Prints "started" once it has read once, and at the end one JSON line with its counts:
 *   rounds, reads, parseFailures (with the first few texts), emptyReads, vanished (a file it had
 *   seen once read as missing), sizes (distinct entry counts seen per inbox).
 *
 *   node read-loop.mjs <teamDir> <stopFile> [intervalMs=10]
 */
import { access, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const [teamDir, stopFile, interval = '10'] = process.argv.slice(2);
const stats = { rounds: 0, reads: 0, parseFailures: 0, failures: [], emptyReads: 0, vanished: 0, sizes: {} };
const seen = new Set();

async function readOne(path) {
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT' && seen.has(path)) stats.vanished++;
    return;
  }
  stats.reads++;
  if (text === '') {
    stats.emptyReads++;
    return;
  }
  try {
    const value = JSON.parse(text);
    seen.add(path);
    if (Array.isArray(value)) (stats.sizes[path] ??= new Set()).add(value.length);
  } catch {
    stats.parseFailures++;
    if (stats.failures.length < 3) stats.failures.push(`${path}: ${text.slice(0, 120)}`);
  }
}

async function round() {
  const inboxDir = join(teamDir, 'inboxes');
  const inboxes = await readdir(inboxDir).catch(() => []);
  await readOne(join(teamDir, 'config.json'));
  for (const name of inboxes) if (name.endsWith('.json')) await readOne(join(inboxDir, name));
  stats.rounds++;
}

const stopped = () => access(stopFile).then(() => true, () => false);
await round();
process.stdout.write('started\n');
while (!(await stopped())) {
  await new Promise((r) => setTimeout(r, Number(interval)));
  await round();
}
const sizes = Object.fromEntries(Object.entries(stats.sizes).map(([k, v]) => [k, v.size]));
process.stdout.write(`${JSON.stringify({ ...stats, sizes })}\n`);
