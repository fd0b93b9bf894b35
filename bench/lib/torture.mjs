// Send torture, shared by test/torture (bounded sizes) and bench/torture.mjs (larger): S senders
// run M sends each, sequentially per sender and all senders at once, to one inbox, while a
// separate reader process parses every file every few ms. runSendTorture runs one real CLI process
// per send; runLibraryTorture one long-lived library process per sender. With killProbability > 0,
// processes are SIGKILLed after a random delay; `kills` forces the first runs of each sender to be
// killed, so a test that needs kills always gets some. Needs `npm run build` (dist/).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openFsStores } from '../../dist/store/open.js';
import { Layout } from '../../dist/store/fs/paths.js';

const BIN = fileURLToPath(new URL('../../bin/mailroom.js', import.meta.url));
const READER = fileURLToPath(new URL('./reader-child.mjs', import.meta.url));
const SENDER = fileURLToPath(new URL('./sender-child.mjs', import.meta.url));

/** Runs `mailroom <args>`; resolves { code, signal, stderr, ms }. Kills it after `killAfterMs` if given. */
export function runMailroom(args, { killAfterMs, env = process.env } = {}) {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, ms: performance.now() - start });
    });
  });
}

/** Starts the reader over the given team directories; `stop()` resolves its summary. */
export async function startReader(teamDirs, intervalMs = 5) {
  const child = spawn(process.execPath, [READER, String(intervalMs), ...teamDirs], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((resolve) => child.stdout.on('data', () => out.includes('ready\n') && resolve()));
  return {
    stop: async () => {
      child.stdin.write('stop\n');
      await new Promise((resolve) => child.on('close', resolve));
      return JSON.parse(out.split('\n').filter(Boolean).at(-1));
    },
  };
}

/**
 * Whether the `run`-th process (0-based) of a sender is to be killed, and after how many ms:
 * always for the first `o.kills` runs, else with probability `o.killProbability`.
 */
function killDelay(o, run) {
  const kill = run < (o.kills ?? 0) || Math.random() < (o.killProbability ?? 0);
  return kill ? Math.random() * (o.maxKillDelayMs ?? 300) : undefined;
}

/**
 * Runs the torture. Options: root, team, to, senders (member names), sends (per sender),
 * killProbability (0..1), kills (the first `kills` processes of each sender are always killed),
 * maxKillDelayMs, readerIntervalMs, during (async fn run concurrently),
 * env (of the CLI processes, e.g. MAILROOM_LOCK_STALE_MS).
 * Resolves { sends: [{ sender, n, text, code, signal, stderr, ms }], reader, texts, elapsedMs }.
 */
export async function runSendTorture(o) {
  const store = openFsStores(o.root).team;
  const reader = await startReader([new Layout(o.root).teamDir(o.team)], o.readerIntervalMs ?? 5);
  const start = performance.now();
  const loop = async (sender) => {
    const done = [];
    for (let n = 1; n <= o.sends; n++) {
      const text = `${sender}-${n}`;
      const kill = killDelay(o, n - 1);
      const args = ['--root', o.root, '--team', o.team, 'team', 'send', o.to, text, '--from', sender];
      done.push({ sender, n, text, ...(await runMailroom(args, { killAfterMs: kill, env: o.env })) });
    }
    return done;
  };
  const [sends] = await Promise.all([Promise.all(o.senders.map(loop)).then((r) => r.flat()), o.during?.()]);
  const elapsedMs = performance.now() - start;
  const summary = await reader.stop();
  return { sends, reader: summary, texts: await inboxTexts(store, o.team, o.to), elapsedMs };
}

/**
 * Like {@link runSendTorture}, but each sender is one long-lived process sending through the library
 * (sender-child.mjs), so a kill lands inside a send rather than in Node's start-up. With
 * killProbability p, each sender process is SIGKILLed after a random delay (≤ maxKillDelayMs) with
 * probability p (always for its first `kills` processes) and restarted after its last
 * acknowledged send; the send in flight is recorded as killed. Same options and result as runSendTorture.
 */
export async function runLibraryTorture(o) {
  const store = openFsStores(o.root).team;
  const reader = await startReader([new Layout(o.root).teamDir(o.team)], o.readerIntervalMs ?? 5);
  const start = performance.now();
  const loop = async (sender) => {
    const done = [];
    let next = 1;
    for (let runs = 0; next <= o.sends; runs++) {
      const kill = killDelay(o, runs);
      const run = await runSender([o.root, o.team, sender, o.to, String(next), String(o.sends)], kill, o.env);
      // The run's stderr (lock warnings) goes on its first record, so judge() counts it once.
      for (const [i, n] of run.acks.entries()) done.push({ sender, n, text: `${sender}-${n}`, code: 0, signal: null, stderr: i === 0 ? run.stderr : '', ms: 0 });
      next = (run.acks.at(-1) ?? next - 1) + 1;
      if (next > o.sends) break;
      done.push({ sender, n: next, text: `${sender}-${next}`, code: run.code, signal: run.signal, stderr: run.acks.length === 0 ? run.stderr : '', ms: 0 });
      next++;
    }
    return done;
  };
  const [sends] = await Promise.all([Promise.all(o.senders.map(loop)).then((r) => r.flat()), o.during?.()]);
  const elapsedMs = performance.now() - start;
  const summary = await reader.stop();
  return { sends, reader: summary, texts: await inboxTexts(store, o.team, o.to), elapsedMs };
}

function runSender(args, killAfterMs, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SENDER, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const acks = out.split('\n').filter((l) => l.startsWith('ack ')).map((l) => Number(l.slice(4)));
      resolve({ acks, code, signal, stderr });
    });
  });
}

async function inboxTexts(store, team, to) {
  const live = await store.readInbox(team, to);
  const archived = (await store.readInboxHistory(team, to)).archived;
  const ids = new Set(live.map((e) => e.msg_id));
  return [...archived.filter((e) => !ids.has(e.msg_id)), ...live].map((e) => e.text);
}

/**
 * Judges a torture result: lost (exited 0 but absent), duplicated (present twice or more),
 * outOfOrder (a sender's entries not in n order), failed (exited non-zero without being killed).
 */
export function judge(result) {
  const count = new Map();
  for (const t of result.texts) count.set(t, (count.get(t) ?? 0) + 1);
  const acknowledged = result.sends.filter((s) => s.code === 0);
  const lost = acknowledged.filter((s) => !count.has(s.text)).map((s) => s.text);
  const duplicated = [...count].filter(([, c]) => c > 1).map(([t]) => t);
  const position = new Map(result.texts.map((t, i) => [t, i]));
  const outOfOrder = [];
  for (const sender of new Set(result.sends.map((s) => s.sender))) {
    const order = result.sends.filter((s) => s.sender === sender && position.has(s.text)).map((s) => position.get(s.text));
    if (order.some((p, i) => i > 0 && p < order[i - 1])) outOfOrder.push(sender);
  }
  const killed = result.sends.filter((s) => s.signal === 'SIGKILL').length;
  const failed = result.sends.filter((s) => s.code !== 0 && s.signal !== 'SIGKILL').map((s) => `${s.text}: ${s.stderr.trim()}`);
  const tookOver = result.sends.filter((s) => /took over a stale lock/.test(s.stderr)).length;
  return { acknowledged: acknowledged.length, killed, lost, duplicated, outOfOrder, failed, tornReads: result.reader.torn, vanished: result.reader.vanished, reads: result.reader.reads, tookOver };
}
