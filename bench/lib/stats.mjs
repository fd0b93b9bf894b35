// Small statistics and timing helpers for bench modules.
import { spawn } from 'node:child_process';

/** The q-quantile (0..1) of `values` (nearest rank). */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Median of `values`. */
export const median = (values) => quantile(values, 0.5);

/** Wall time of `node <args>` in ms (spawn to exit). */
export function timeNode(args, env = process.env) {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}
