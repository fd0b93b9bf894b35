// A child process that takes a store lock through the built library (dist/), for multi-process
// lock tests. Talks over stdio, one line at a time.
//
//   node lock-child.mjs hold <file> <staleMs>   prints "locked", waits for "go" on stdin, then
//                                               writes "child" to <file> under the lock
//   node lock-child.mjs race <file> <staleMs>   prints "ready", waits for "go", takes the lock,
//                                               creates <file>.inside exclusively (else prints
//                                               "OVERLAP"), holds it 30 ms, removes it, releases
//   node lock-child.mjs stall <file> <staleMs>  takes the lock, writes <file>'s own content back
//                                               through the atomic writer and stops right before
//                                               the rename, printing "renaming" (kill it then: a
//                                               writer killed at the worst moment)
//   node lock-child.mjs exit-releasing <file> <staleMs>  takes the lock, starts releasing it in the
//                                               background and exits at once (process.exit)
//   node lock-child.mjs graceful <file> <staleMs>  listens once for SIGINT/SIGTERM first (as
//                                               `watch` does), then takes the lock and prints
//                                               "locked"; on the signal it releases and exits 0
// On a MailroomError it prints "<CODE>: <message>" to stderr and exits with the CLI's exit code.
import { open, unlink } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { acquireLock } from '../../dist/store/fs/lock.js';
import { readFile } from 'node:fs/promises';
import { writeJsonFile } from '../../dist/store/fs/json-file.js';
import { writeFileAtomic } from '../../dist/store/fs/atomic-write.js';
import { exitCodeFor } from '../../dist/errors.js';

const [mode, file, stale] = process.argv.slice(2);
const options = { staleMs: Number(stale), onWarning: (m) => process.stderr.write(`${m}\n`) };
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const waitGo = async () => {
  for (;;) {
    const { value, done } = await lines.next();
    if (done || value === 'go') return;
  }
};

try {
  if (mode === 'graceful') {
    let lock;
    const stop = () => void lock?.release().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    lock = await acquireLock(file, `${file}.lock`, options);
    process.stdout.write('locked\n');
    await new Promise(() => undefined);
  } else if (mode === 'exit-releasing') {
    const lock = await acquireLock(file, `${file}.lock`, options);
    lock.releaseInBackground();
    process.exit(0);
  } else if (mode === 'hold') {
    const lock = await acquireLock(file, `${file}.lock`, options);
    process.stdout.write('locked\n');
    await waitGo();
    try {
      await writeJsonFile(file, 'child', lock);
      process.stdout.write('wrote\n');
    } finally {
      await lock.release();
    }
  } else if (mode === 'stall') {
    await acquireLock(file, `${file}.lock`, options);
    const text = await readFile(file, 'utf8');
    await writeFileAtomic(file, text, {
      beforeRename: async () => {
        process.stdout.write('renaming\n');
        await new Promise(() => undefined);
      },
    });
  } else if (mode === 'race') {
    process.stdout.write('ready\n');
    await waitGo();
    const lock = await acquireLock(file, `${file}.lock`, options);
    try {
      const inside = await open(`${file}.inside`, 'wx').catch(() => undefined);
      if (!inside) process.stdout.write('OVERLAP\n');
      await new Promise((r) => setTimeout(r, 30));
      if (inside) {
        await inside.close();
        await unlink(`${file}.inside`);
      }
    } finally {
      await lock.release();
    }
    process.stdout.write('done\n');
  }
  process.exit(0);
} catch (err) {
  process.stderr.write(`${err.code ?? 'ERROR'}: ${err.message}\n`);
  process.exit(exitCodeFor(err));
}
