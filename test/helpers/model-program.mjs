#!/usr/bin/env node
// An external program used as a `command:` model in tests. Usage: node model-program.mjs <mode> <dir>
//   record — saves stdin to <dir>/request-<n>.txt, replies "ack <n>" on stdout
//   slow   — writes its pid to <dir>/slow-started, then sleeps 60 s (a long model call)
//   fail   — prints "boom" on stderr and exits 3
// Files appear whole (written aside, then renamed): tests poll for them, and a file caught between
// its creation and its write would read as empty (an empty pid is 0, and kill(0) hits the test's
// whole process group).
import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [mode, dir] = process.argv.slice(2);
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  if (mode === 'record') {
    const n = readdirSync(dir).filter((f) => f.startsWith('request-')).length + 1;
    writeWhole(join(dir, `request-${n}.txt`), input);
    process.stdout.write(`ack ${n}\n`);
  } else if (mode === 'slow') {
    writeWhole(join(dir, 'slow-started'), String(process.pid));
    setTimeout(() => process.exit(0), 60_000);
  } else {
    process.stderr.write('boom\n');
    process.exit(3);
  }
});

function writeWhole(path, text) {
  const aside = join(dir, `.model-program-${process.pid}.tmp`);
  writeFileSync(aside, text);
  renameSync(aside, path);
}
