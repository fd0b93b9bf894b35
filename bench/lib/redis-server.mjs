// A redis-server for bench modules: a free loopback port, its own temp directory, no persistence
// (or AOF with appendfsync always), stopped by stop(). Fails saying how to install it when missing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function startRedis({ aof = false } = {}) {
  if (spawnSync('redis-server', ['--version']).status !== 0) throw new Error('redis-server is not installed: install it: apt-get install redis-server');
  const dir = await mkdtemp(join(tmpdir(), 'mailroom-bench-redis-'));
  const port = await new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = srv.address().port;
      srv.close(() => resolve(p));
    });
  });
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--logfile', '', '--appendonly', aof ? 'yes' : 'no'];
  if (aof) args.push('--appendfsync', 'always');
  const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${out}`)));
  });
  proc.stdout.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGKILL');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
