// Baseline probes for latency benches: a plain fs.watch on one directory (the earliest moment a
// watcher on this machine can learn that a file there changed) and a timeout guard so a lost
// wake-up fails the bench instead of hanging it.
import { watch } from 'node:fs';

/** Rejects when `promise` has not settled within `ms`; `what` names it in the error. */
export function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench: ${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Watches `dir` with one plain `fs.watch` (no chokidar, no debounce). `next()` resolves with
 * `performance.now()` at the first event naming `file` after the call; `close()` stops watching.
 */
export function probeFile(dir, file) {
  let waiting;
  const watcher = watch(dir, (_event, name) => {
    if (name !== file || !waiting) return;
    const resolve = waiting;
    waiting = undefined;
    resolve(performance.now());
  });
  return {
    next: () => within(new Promise((r) => (waiting = r)), 10_000, `an fs.watch event for ${file}`),
    close: () => watcher.close(),
  };
}

/** Resolves after `ms`. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
