// Benchmark of `mailroom dashboard` on a team of 20 members, 500 tasks and 10 000 messages of
// history (files store): the page's first paint (navigation start → the first frame with the
// roster drawn) in a real Chromium (Debian's, through playwright-core), and a message appended to
// an inbox until the first frame that shows it; beside the same figures for `mailroom watch
// --json` (process start → its first line; append → its line), measured in the same run,
// interleaved. Medians and p95, with the load average. The page's moments are taken by the page
// itself (a MutationObserver, then the next animation frame, on the epoch clock both processes
// share), so they leave out playwright's own polling, which on a loaded machine adds hundreds of ms.
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
    // In the page: the epoch ms of the first frame after the roster appears, and after each awaited text appears in the flow.
    await page.addInitScript(() => {
      const w = window;
      w.__seen = {};
      w.__await = [];
      const framed = (f) => requestAnimationFrame(() => setTimeout(() => f(performance.timeOrigin + performance.now()), 0));
      new MutationObserver(() => {
        if (w.__rosterAt === undefined && document.querySelector('table[aria-label=Roster] tbody tr')) {
          w.__rosterAt = 0;
          framed((t) => (w.__rosterAt = t - performance.timeOrigin));
        }
        for (const text of w.__await.splice(0)) {
          if ([...document.querySelectorAll('ol.flow li')].some((li) => li.textContent?.includes(text))) framed((t) => (w.__seen[text] = t));
          else w.__await.push(text);
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const epoch = () => performance.timeOrigin + performance.now();
    for (let i = 0; i < runs; i++) {
      loads.push(loadavg()[0]);
      // First paint: a fresh navigation (the server already follows the team, as it does once running).
      await page.goto(dash.url);
      await page.waitForFunction(() => window.__rosterAt > 0, undefined, { timeout: 20_000 });
      paint.push(await page.evaluate(() => window.__rosterAt));
      const watch = await startWatch(root);
      watchStart.push(watch.firstMs);
      // Event → screen: the Messages view open, one entry appended as another writer would.
      await page.keyboard.press('4');
      await page.waitForSelector('ol.flow');
      const text = `bench event ${i} ${Date.now()}`;
      await page.evaluate((t) => window.__await.push(t), text);
      const inWatch = watch.seen(text);
      const t1 = performance.now();
      const e1 = epoch();
      await store.team.appendMessages(TEAM, [{ to: 'agent-3', entry: { from: 'team-lead', text, timestamp: new Date().toISOString(), read: false } }]);
      await page.waitForFunction((t) => window.__seen[t] !== undefined, text, { timeout: 20_000 });
      pageEvent.push((await page.evaluate((t) => window.__seen[t], text)) - e1);
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
    { metric: `dashboard: first paint (navigation start → first frame with the roster), median (${scale})`, value: quantile(paint, 0.5), unit: 'ms', goal: '< 300 ms', baseline: { label: '`watch --json` spawn → first line', value: quantile(watchStart, 0.5) }, note: `p95 ${quantile(paint, 0.95).toFixed(0)} ms; ${load}` },
    { metric: `dashboard: message appended → first frame showing it, median (${scale})`, value: quantile(pageEvent, 0.5), unit: 'ms', goal: '< 200 ms', baseline: { label: '`watch --json` append → line', value: quantile(watchEvent, 0.5) }, note: `p95 ${quantile(pageEvent, 0.95).toFixed(0)} ms (watch ${quantile(watchEvent, 0.95).toFixed(0)} ms); ${load}` },
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
