// One writer process for bench/20-writers' raw floor (issue 24): appends <count> entries to one
// JSON-array file by hand, each as the least a locked inbox append does — take a mkdir lock
// (retrying every 1 ms while another holds it), read the array, append, write a temporary file,
// fsync it, rename it over the file, remove the lock — after "go" on stdin, back to back.
// Prints JSON { done }.
import { mkdir, open, readFile, rename, rmdir } from 'node:fs/promises';

const [file, count, tag] = process.argv.slice(2);
const lock = `${file}.lock`;
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
for (let i = 0; i < Number(count); i++) {
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 1));
    }
  }
  const entries = JSON.parse(await readFile(file, 'utf8'));
  entries.push({ from: 'a', text: `${tag}-${i}`, summary: '', timestamp: new Date().toISOString(), color: 'blue', read: false });
  const tmp = `${file}.${tag}.tmp`;
  const fh = await open(tmp, 'w', 0o600);
  await fh.writeFile(JSON.stringify(entries, null, 2));
  await fh.sync();
  await fh.close();
  await rename(tmp, file);
  await rmdir(lock);
}
process.stdout.write(`${JSON.stringify({ done: Number(count), waits: [], holds: [] })}\n`);
process.exit(0);
