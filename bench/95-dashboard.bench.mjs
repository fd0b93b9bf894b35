// Benchmark of `mailroom dashboard` on a team of 20 members, 500 tasks and 10 000 messages of
// history (files store): the page's first paint (navigation → roster drawn) in a real Chromium
// (Debian's, through playwright-core), and a message appended to an inbox until the page shows it;
// beside the same figures for `mailroom watch --json` (process start → its first line; append →
// its line), measured in the same run, interleaved. Medians and p95, with the load average.
// Run alone: `npm run build && node bench/95-dashboard.bench.mjs [--quick]`.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { buildTeam, TEAM } from './40-watch.bench.mjs';
import { startDashboard } from '../dist/dashboard/server.js';

const BIN = fileURLToPath(new URL('../bin/mailroom.js', import.meta.url));
const quantile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
};

/** `mailroom watch --json`: ms from spawn to its first line, and a function that times append → line. */
async function startWatch(root) {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [BIN, '--root', root, 'watch', TEAM, '--json', '--no-record'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const lines = createInterface({ input: proc.stdout });
  const waiters = [];
  let first;
  const firstLine = new Promise((r) => (first = r));
  lines.on('line', (line) => {
    first(performance.now() - t0);
    for (const w of waiters.splice(0)) if (line.includes(w.text)) w.resolve(performance.now()); else waiters.push(w);
  });
  return { firstMs: await firstLine, seen: (text) => new Promise((resolve) => waiters.push({ text, resolve })), stop: () => proc.kill('SIGTERM') };
}

/** Rows for bench/run.mjs. */
export default async function dashboardBench(ctx) {
  const runs = ctx.quick ? 5 : 15;
  const root = await ctx.tempRoot();
  const store = await buildTeam(root, 20, 500, 10_000);
  const dash = await startDashboard({ stores: store, team: TEAM, storeLabel: root });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const paint = [];
  const watchStart = [];
  const pageEvent = [];
  const watchEvent = [];
  const loads = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    for (let i = 0; i < runs; i++) {
      loads.push(loadavg()[0]);
      // First paint: a fresh navigation (the server already follows the team, as it does once running).
      const t0 = performance.now();
      await page.goto(dash.url);
      await page.waitForSelector('table[aria-label=Roster] tbody tr');
      paint.push(performance.now() - t0);
      const watch = await startWatch(root);
      watchStart.push(watch.firstMs);
      // Event → screen: the Messages view open, one entry appended as another writer would.
      await page.keyboard.press('4');
      await page.waitForSelector('ol.flow');
      const text = `bench event ${i} ${Date.now()}`;
      const shown = page.waitForFunction((t) => [...document.querySelectorAll('ol.flow li')].some((li) => li.textContent?.includes(t)), text, { polling: 'raf', timeout: 20_000 });
      const inWatch = watch.seen(text);
      const t1 = performance.now();
      await store.team.appendMessages(TEAM, [{ to: 'agent-3', entry: { from: 'team-lead', text, timestamp: new Date().toISOString(), read: false } }]);
      await shown;
      pageEvent.push(performance.now() - t1);
      watchEvent.push((await inWatch) - t1);
      watch.stop();
    }
  } finally {
    await browser.close();
    await dash.close();
    await store.close();
  }
  const load = `load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
  const scale = '20 members, 500 tasks, 10 000 messages';
  return [
    { metric: `dashboard: first paint (navigation → roster drawn), median (${scale})`, value: quantile(paint, 0.5), unit: 'ms', goal: '< 300 ms', baseline: { label: '`watch --json` spawn → first line', value: quantile(watchStart, 0.5) }, note: `p95 ${quantile(paint, 0.95).toFixed(0)} ms; ${load}` },
    { metric: `dashboard: message appended → shown in the page, median (${scale})`, value: quantile(pageEvent, 0.5), unit: 'ms', goal: '< 200 ms', baseline: { label: '`watch --json` append → line', value: quantile(watchEvent, 0.5) }, note: `p95 ${quantile(pageEvent, 0.95).toFixed(0)} ms (watch ${quantile(watchEvent, 0.95).toFixed(0)} ms); ${load}` },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { renderTable } = await import('./lib/table.mjs');
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const temps = [];
  const rows = await dashboardBench({ quick: process.argv.includes('--quick'), tempRoot: async () => { const p = await mkdtemp(join(tmpdir(), 'mailroom-bench-')); temps.push(p); return p; }, log: (l) => process.stderr.write(`  ${l}\n`) });
  for (const t of temps) await rm(t, { recursive: true, force: true });
  process.stdout.write(`${renderTable(rows)}\n`);
}
