// Benchmark of `mailroom watch` and `mailroom log` on a large team: 50 members, 1 000 tasks,
// 10 000 messages (half in the lead's inbox, the rest spread over the teammates). Medians (and a
// p95) of: a cold snapshot (config + every inbox + every task + journal), the first start that
// journals every message, applying one inbox or task change to a loaded tracker, rendering the
// screen (ink, 120×40), a file change until the screen shows it (fs.watch → tracker → render), and
// reading and formatting the journal. Baselines are measured in the same run.
// A bench module for bench/run.mjs (`npm run bench`, or `node bench/run.mjs --only watch`); run
// alone (`npm run build && node bench/40-watch.bench.mjs [--quick]`) it prints its own table.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openFsStores, createTeam, snapshotTeam, TeamTracker, followTeam, updateTask, JournalReader, describeJournalEvent, parseMessageText } from '../dist/index.js';
import { Layout } from '../dist/internals.js';
import { describeText } from '../dist/core/live/describe.js';

// As `mailroom watch` does before loading the screen: React's production build.
process.env.NODE_ENV ??= 'production';
const { default: React } = await import('react');
const { render } = await import('ink-testing-library');
const { WatchApp } = await import('../dist/tui/app.js');

export const TEAM = 'big';

const quantile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
};
const median = (xs) => quantile(xs, 0.5);
async function time(fn) {
  const t = performance.now();
  const value = await fn();
  return [performance.now() - t, value];
}

/** Writes a file of the team as another writer (Claude Code) would: not journalled by mailroom. */
async function writeAsOther(path, value) {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, JSON.stringify(value, null, 2), { mode: 0o600 });
}

export async function buildTeam(root, members, tasks, messages) {
  const store = openFsStores(root);
  const layout = new Layout(root);
  await createTeam({ root: store, team: TEAM });
  const names = Array.from({ length: members - 1 }, (_, i) => `agent-${i + 1}`);
  const config = await store.team.readConfig(TEAM);
  names.forEach((name, i) => config.members.push({ agentId: `${name}@${TEAM}`, name, model: 'worker', color: ['blue', 'green', 'yellow', 'purple'][i % 4], joinedAt: Date.now(), tmuxPaneId: 'in-process', cwd: root, subscriptions: [], backendType: 'in-process' }));
  await writeAsOther(layout.configPath(TEAM), config);
  const t0 = Date.UTC(2026, 2, 1);
  const ts = (i) => new Date(t0 + i * 10).toISOString();
  const lead = [];
  const perAgent = new Map(names.map((n) => [n, []]));
  for (let i = 0; i < messages; i++) {
    const agent = names[i % names.length];
    if (i % 2 === 0) {
      const idle = i % 4 === 0;
      const text = idle ? JSON.stringify({ type: 'idle_notification', from: agent, timestamp: ts(i), idleReason: 'available' }) : `progress report ${i} from ${agent}: all good so far, moving on to the next step`;
      lead.push({ from: agent, text, timestamp: ts(i), read: i < messages - 200, type: 'message', msgV: 1, msg_id: `m-${i}` });
    } else {
      perAgent.get(agent).push({ from: 'team-lead', text: `instruction ${i}: please look at item ${i}`, timestamp: ts(i), read: true, type: 'message', msgV: 1, msg_id: `m-${i}` });
    }
  }
  await writeAsOther(layout.inboxPath(TEAM, 'team-lead'), lead);
  for (const [agent, entries] of perAgent) await writeAsOther(layout.inboxPath(TEAM, agent), entries);
  for (let i = 1; i <= tasks; i++) {
    const status = i <= tasks * 0.6 ? 'completed' : i <= tasks * 0.7 ? 'in_progress' : 'pending';
    const task = { id: String(i), subject: `Task number ${i}`, description: `Do part ${i}`, status, blocks: [], blockedBy: i > 1 && i % 5 === 0 ? [String(i - 1)] : [] };
    if (status !== 'pending') task.owner = names[i % names.length];
    await writeAsOther(layout.taskPath(TEAM, task.id), task);
  }
  return store;
}

/** Rows for bench/run.mjs: `{ metric, value, unit, baseline?, note? }`. */
export default async function watchBench(ctx) {
  const runs = ctx.quick ? 5 : 20;
  const size = { members: 50, tasks: 1000, messages: 10_000 };
  const scale = `${size.members} members, ${size.tasks.toLocaleString('en-US')} tasks, ${size.messages.toLocaleString('en-US')} messages`;
  const rows = [];
  const row = (metric, value, baseline, note) => rows.push({ metric, value, unit: 'ms', ...(baseline ? { baseline } : {}), ...(note ? { note } : {}) });

  const small = await buildTeam(await ctx.tempRoot(), 3, 2, 4);
  const smallCold = [];
  for (let i = 0; i < 5; i++) smallCold.push((await time(() => snapshotTeam({ root: small, team: TEAM })))[0]);
  const tiny = { label: 'same, 3 members, 2 tasks, 4 messages', value: median(smallCold) };

  const root = await ctx.tempRoot();
  const [buildMs, store] = await time(() => buildTeam(root, size.members, size.tasks, size.messages));
  ctx.log(`watch: built ${scale} in ${buildMs.toFixed(0)} ms`);
  const coldRuns = [];
  for (let i = 0; i < 5; i++) coldRuns.push((await time(() => snapshotTeam({ root: store, team: TEAM })))[0]);
  const cold = median(coldRuns);
  row(`watch: cold snapshot (${scale})`, cold, tiny);
  const perChange = { label: 'cold snapshot (re-reading everything)', value: cold };

  const [firstRecordMs] = await time(() => new TeamTracker(store, TEAM, { record: true }).load());
  row('watch: first start, journaling every message once', firstRecordMs, perChange);
  const [againMs] = await time(() => new TeamTracker(store, TEAM, { record: true }).load());
  row('watch: start with the journal up to date', againMs, perChange);

  const tracker = new TeamTracker(store, TEAM, { record: true });
  await tracker.load();
  const inboxApply = [];
  const taskApply = [];
  for (let i = 0; i < runs; i++) {
    await store.team.appendMessages(TEAM, [{ to: 'agent-7', entry: { from: 'team-lead', text: `bench ${i}`, timestamp: new Date().toISOString(), read: false } }]);
    inboxApply.push((await time(() => tracker.apply([{ kind: 'inbox', team: TEAM, member: 'agent-7' }])))[0]);
    await updateTask({ root: store, team: TEAM, id: String(size.tasks - i), subject: `Renamed ${i}` });
    taskApply.push((await time(() => tracker.apply([{ kind: 'task', team: TEAM, id: String(size.tasks - i) }])))[0]);
  }
  row('watch: apply one inbox change (re-read it, rebuild snapshot)', median(inboxApply), perChange);
  row('watch: apply one task change', median(taskApply), perChange);

  const snapshot = tracker.snapshot();
  const props = (s) => ({ snapshot: s, columns: 120, rows: 40, onSend: async () => '', onQuit: () => undefined });
  const [firstFrameMs, ui] = await time(() => render(React.createElement(WatchApp, props(snapshot))));
  row('watch: first frame (ink, 120×40)', firstFrameMs);
  const rerender = [];
  for (let i = 0; i < runs; i++) {
    await store.team.appendMessages(TEAM, [{ to: 'team-lead', entry: { from: 'agent-3', text: `frame ${i}`, timestamp: new Date().toISOString(), read: false } }]);
    const { snapshot: next } = await tracker.apply([{ kind: 'inbox', team: TEAM, member: 'team-lead' }]);
    rerender.push((await time(() => ui.rerender(React.createElement(WatchApp, props(next)))))[0]);
    if (!ui.lastFrame().includes(`frame ${i}`)) throw new Error('the frame does not show the new message');
  }
  row('watch: re-render with a new snapshot', median(rerender), { label: 'first frame', value: firstFrameMs });

  // End to end, as `watch` runs: the inbox file is replaced (atomic rename) → fs.watch event →
  // 15 ms debounce → tracker.apply → the screen re-rendered with the new message visible.
  const toUpdate = [];
  const toFrame = [];
  let resolveUpdate;
  const following = await followTeam({
    store,
    team: TEAM,
    onUpdate: (u) => {
      const updated = performance.now();
      ui.rerender(React.createElement(WatchApp, props(u.snapshot)));
      resolveUpdate?.({ u, updated });
    },
  });
  for (let i = 0; i < runs; i++) {
    const seen = new Promise((r) => (resolveUpdate = r));
    await store.team.appendMessages(TEAM, [{ to: 'agent-11', entry: { from: 'team-lead', text: `latency ${i}`, timestamp: new Date().toISOString(), read: false } }]);
    const written = performance.now();
    const { u, updated } = await seen;
    toUpdate.push(updated - written);
    toFrame.push(performance.now() - written);
    if (!u.events.some((e) => e.kind === 'message' && e.message.entry.text === `latency ${i}`)) throw new Error('update without the message');
    if (!ui.lastFrame().includes(`latency ${i}`)) throw new Error('the frame does not show the new message');
    await new Promise((r) => setTimeout(r, 30));
  }
  await following.close();
  ui.unmount();
  row('watch: file change → snapshot updated (fs.watch + tracker), median', median(toUpdate), perChange);
  row('watch: file change → screen shows it, median', median(toFrame), perChange);
  row('watch: file change → screen shows it, p95', quantile(toFrame, 0.95), perChange);

  const reads = [];
  let events = [];
  for (let i = 0; i < 5; i++) reads.push((await time(async () => (events = await new JournalReader(store, TEAM).next())))[0]);
  const { size: bytes } = await stat(join(root, 'mailroom', 'journal', `${TEAM}.ndjson`));
  row(`log: read + deduplicate the journal (${events.length.toLocaleString('en-US')} events)`, median(reads), perChange, `${(bytes / 2 ** 20).toFixed(1)} MB`);
  const [printMs] = await time(() => events.map((e) => describeJournalEvent(e, (t) => describeText(parseMessageText(t)))).join('\n').length);
  row(`log: format ${events.length.toLocaleString('en-US')} lines`, printMs);
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const temps = [];
  const ctx = {
    quick: process.argv.includes('--quick'),
    tempRoot: async () => {
      const path = await mkdtemp(join(tmpdir(), 'mailroom-bench-watch-'));
      temps.push(path);
      return path;
    },
    log: (line) => process.stderr.write(`  ${line}\n`),
  };
  try {
    const rows = await watchBench(ctx);
    const width = Math.max(...rows.map((r) => r.metric.length));
    for (const r of rows) {
      const ratio = r.baseline ? `  (${(r.value / r.baseline.value).toFixed(2)}× ${r.baseline.label}: ${r.baseline.value.toFixed(1)} ms)` : '';
      console.log(`${r.metric.padEnd(width)}  ${r.value.toFixed(1).padStart(8)} ms${r.note ? ` [${r.note}]` : ''}${ratio}`);
    }
  } finally {
    for (const t of temps) await rm(t, { recursive: true, force: true });
  }
}
