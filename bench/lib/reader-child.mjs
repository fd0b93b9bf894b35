// A reader that never locks, like Claude Code's pollers: every <intervalMs> it reads and
// JSON-parses config.json of each listed team directory and every inbox file, until "stop" arrives
// on stdin; then it prints one JSON line: { reads, torn, vanished, samples }.
//   torn:     reads whose text was empty or did not parse (a torn write)
//   vanished: reads that found a file missing after it had been seen
// Usage: node reader-child.mjs <intervalMs> <teamDir>...
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const [interval, ...teamDirs] = process.argv.slice(2);
const seen = new Set();
const result = { reads: 0, torn: 0, vanished: 0, samples: [] };
let stopping = false;
process.stdin.on('data', (d) => {
  if (String(d).includes('stop')) stopping = true;
});

async function filesOf(teamDir) {
  const inboxes = await readdir(join(teamDir, 'inboxes')).catch(() => []);
  return [join(teamDir, 'config.json'), ...inboxes.filter((f) => f.endsWith('.json')).map((f) => join(teamDir, 'inboxes', f))];
}

async function readOne(path) {
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT' && seen.has(path)) result.vanished++;
    return;
  }
  result.reads++;
  seen.add(path);
  try {
    if (text === '') throw new Error('empty file');
    JSON.parse(text);
  } catch (err) {
    result.torn++;
    if (result.samples.length < 5) result.samples.push(`${path}: ${err.message} (${text.length} chars)`);
  }
}

process.stdout.write('ready\n');
while (!stopping) {
  for (const dir of teamDirs) for (const f of await filesOf(dir)) await readOne(f);
  await new Promise((r) => setTimeout(r, Number(interval)));
}
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
