// A send to a Redis store on another machine costs its round trips (issue 24): the send as the CLI
// makes it (`withConfig`: the config and the settings read together, then `sendMessage`'s append),
// through a TCP proxy that holds every chunk 1 ms each way, against one PING through the same proxy
// before each send;
// the ratio is the number of round trips a send waits for. The same on loopback, without the proxy.
import net from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTeam, openStores, sendMessage, spawnMember } from '../dist/index.js';
import { withConfig } from '../dist/core/teams/known-config.js';
import { startRedis } from './lib/redis-server.mjs';
import { median } from './lib/stats.mjs';

const DELAY_MS = 1;

/** A proxy to `url` that delays every chunk by `ms` in each direction; resolves with its URL and a close(). */
async function delayedLink(url, ms) {
  const target = new URL(url);
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) (sockets.add(s), s.on('error', () => undefined), s.on('close', () => sockets.delete(s)));
    client.on('data', (d) => setTimeout(() => upstream.write(d), ms));
    upstream.on('data', (d) => setTimeout(() => client.write(d), ms));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `redis://127.0.0.1:${server.address().port}`, close: () => (sockets.forEach((s) => s.destroy()), server.close()) };
}

/**
 * `n` CLI-shaped sends through `url`, each beside one PING on a raw connection to the same `url`
 * (interleaved); resolves with both medians in ms.
 */
async function sendAndPingMs(url, n) {
  const store = await openStores({ kind: 'redis', url, hostRoot: await mkdtemp(join(tmpdir(), 'mailroom-bench-link-')) });
  const u = new URL(url);
  const socket = await new Promise((resolve) => { const s = net.createConnection(Number(u.port), u.hostname, () => resolve(s)); });
  const team = `link${Math.random().toString(36).slice(2, 8)}`;
  await createTeam({ root: store, team });
  await spawnMember({ root: store, team, name: 'bob' });
  const sends = [];
  const pings = [];
  try {
    for (let i = -10; i < n; i++) {
      const p0 = performance.now();
      await new Promise((resolve) => (socket.once('data', resolve), socket.write('PING\r\n')));
      const t0 = performance.now();
      await sendMessage({ ...(await withConfig({ root: store, team })), to: 'bob', text: `hi ${i}` });
      if (i < 0) continue;
      pings.push(t0 - p0);
      sends.push(performance.now() - t0);
    }
  } finally {
    socket.destroy();
    await store.close?.();
  }
  return { send: median(sends), ping: median(pings) };
}

export default async function redisLinkBench(ctx) {
  const n = ctx.quick ? 100 : 400;
  process.env.MAILROOM_ALLOW_VOLATILE = '1';
  const redis = await startRedis();
  const link = await delayedLink(redis.url, DELAY_MS);
  try {
    const { send: far, ping: farPing } = await sendAndPingMs(link.url, n);
    const { send: near, ping: nearPing } = await sendAndPingMs(redis.url, n);
    ctx.log(`send through a ${DELAY_MS} ms-each-way link: ${far.toFixed(2)} ms = ${(far / farPing).toFixed(2)} PING round trips (${farPing.toFixed(2)} ms each)`);
    return [
      { metric: `Redis \`team send\`'s store work (config + settings, then the append) through a link adding ${DELAY_MS} ms each way, p50`, note: `${n} sends`, value: far, unit: 'ms', baseline: { label: 'one PING through the same link, p50', value: farPing }, goal: '2 round trips (the ratio)' },
      { metric: 'Redis `team send`\'s store work on loopback, p50', value: near, unit: 'ms', baseline: { label: 'one PING on loopback, p50', value: nearPing } },
    ];
  } finally {
    link.close();
    await redis.stop();
  }
}
