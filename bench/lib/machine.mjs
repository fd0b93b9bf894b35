// The machine a bench ran on: nproc, memory (free -h), node version, OS.
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, release, totalmem, type } from 'node:os';

function tryRun(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** A short markdown paragraph describing this machine. */
export async function machine() {
  const mem = tryRun('free', ['-h'])?.split('\n')[1]?.split(/\s+/)[1] ?? `${(totalmem() / 2 ** 30).toFixed(1)}Gi`;
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return [
    `Machine: ${availableParallelism()} CPUs (nproc ${tryRun('nproc', []) ?? '?'}, ${cpu}), ${mem} RAM (free -h), ` +
      `Node ${process.version}, ${type()} ${release()}, load average at end ${tryRun('cat', ['/proc/loadavg'])?.split(' ').slice(0, 3).join(' ') ?? '?'}.`,
  ].join('\n');
}
