// The frozen-writer torture (issue 9 item 2), shared by test/torture/frozen-writer.test.ts and
// `node bench/torture.mjs --frozen`. A real `mailroom` CLI process writes one file and is stopped
// (SIGSTOP, by the store's own test hook $MAILROOM_TEST_FREEZE) at an exact point of its write
// step, holding the file's lock; a second writer takes the lock over once it is stale and writes
// `takerWrites` times; the first is resumed (SIGCONT). Then every acknowledged write is looked for.
//   kind:   inbox (team send), task (task update), config (team spawn)
//   points: where the first writer stops, e.g. ['before-link'] or ['before-link', 'after-rename']
//           (with two points it is resumed after half the taker's writes, stops again, and is
//           resumed after the rest)
//   taker:  'mailroom' (CLI processes) or 'claude' (real proper-lockfile, as Claude Code locks,
//           which cancels nothing: claude-taker.mjs)
//   kill:   at its last stop the first writer is killed (SIGKILL) instead of resumed: what it
//           left (a `.keep-*` link) is looked at by the caller
// Resolves { kind, points, taker, acknowledged, present, lost, duplicated, unjournalled,
// journalledTwice, frozen: { code, stderr }, takerStderr }: the last two check the journal, which
// each mailroom write appends to in its step (a write that runs again must not journal twice).
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Layout } from '../../dist/store/fs/paths.js';
import { runMailroom } from './torture.mjs';

const BIN = fileURLToPath(new URL('../../bin/mailroom.js', import.meta.url));
const CLAUDE = fileURLToPath(new URL('./claude-taker.mjs', import.meta.url));
export const FROZEN_STALE_MS = 2000; // proper-lockfile's minimum; the same for every process

const KINDS = {
  inbox: {
    file: (l) => l.inboxPath('t', 'team-lead'),
    frozen: ['team', 'send', 'team-lead', 'frozen-1', '--from', 'a'],
    taker: (i) => ['team', 'send', 'team-lead', `b-${i}`, '--from', 'b'],
    found: async (l) => (JSON.parse(await readFile(l.inboxPath('t', 'team-lead'), 'utf8'))).map((e) => e.text),
    // the journal event each acknowledged write of mailroom's produced (in the same step as the write)
    journalled: (e) => (e.kind === 'message' && e.to === 'team-lead' ? [e.entry.text] : []),
  },
  task: {
    file: (l) => l.taskPath('t', '1'),
    frozen: ['task', 'update', '1', '--description', 'frozen-1', '--as', 'a'],
    taker: (i) => ['task', 'update', '1', '--metadata', `b-${i}=true`, '--as', 'b'],
    found: async (l) => {
      const task = JSON.parse(await readFile(l.taskPath('t', '1'), 'utf8'));
      return [...(task.description === 'frozen-1' ? ['frozen-1'] : []), ...Object.keys(task.metadata ?? {})];
    },
    journalled: (e) => {
      if (e.kind !== 'task' || e.action !== 'updated' || e.task.id !== '1') return [];
      if (e.changed?.includes('description') && e.task.description === 'frozen-1') return ['frozen-1'];
      return e.changed?.includes('metadata') ? Object.keys(e.task.metadata ?? {}).filter((k) => /^b-\d+$/.test(k)).slice(-1) : [];
    },
  },
  config: {
    file: (l) => l.configPath('t'),
    frozen: ['team', 'spawn', 'frozen-1', '--prompt', 'hi'],
    taker: (i) => ['team', 'spawn', `b-${i}`, '--prompt', 'hi'],
    found: async (l) => JSON.parse(await readFile(l.configPath('t'), 'utf8')).members.map((m) => m.name),
    journalled: (e) => (e.kind === 'member' && e.action === 'joined' ? [e.name] : []),
  },
};

/** Runs one round in `root` (a team `t` with members a and b, and task #1, made by the caller). */
export async function runFrozenWriter({ root, kind, points, taker, takerWrites = 6, env = process.env, kill = false }) {
  const k = KINDS[kind];
  const layout = new Layout(root);
  const file = k.file(layout);
  const part = file.slice(layout.root.length);
  const envAll = { ...env, MAILROOM_LOCK_STALE_MS: String(FROZEN_STALE_MS) };
  const frozen = startFrozen(['--root', root, '--team', 't', ...k.frozen], { ...envAll, MAILROOM_TEST_FREEZE: `${points.join(',')}:${part}` });
  await frozen.stopped(1);
  const half = points.length > 1 ? Math.ceil(takerWrites / 2) : takerWrites;
  const acked = [];
  let takerStderr = '';
  const write = async (from, to) => {
    if (taker === 'mailroom') {
      for (let i = from; i <= to; i++) {
        const run = await runMailroom(['--root', root, '--team', 't', ...k.taker(i)], { env: envAll });
        takerStderr += run.stderr;
        if (run.code === 0) acked.push(`b-${i}`);
      }
    }
  };
  let claude;
  if (taker === 'claude') {
    claude = startClaude(kind, file, takerWrites, half);
    await claude.waitFor(half < takerWrites ? 'paused' : `ack ${takerWrites}`);
  } else await write(1, half);
  frozen.proc.kill('SIGCONT');
  if (points.length > 1) {
    await frozen.stopped(2);
    if (claude) claude.proc.stdin.write('go\n');
    else await write(half + 1, takerWrites);
    if (claude) await claude.waitFor(`ack ${takerWrites}`);
    frozen.proc.kill(kill ? 'SIGKILL' : 'SIGCONT');
  }
  const code = await frozen.exited;
  if (claude) {
    await claude.exited;
    for (let i = 1; i <= takerWrites; i++) if (claude.out().includes(`ack ${i}\n`)) acked.push(`b-${i}`);
    takerStderr += claude.err();
  }
  if (code === 0) acked.push('frozen-1');
  const found = await k.found(layout);
  const count = new Map();
  for (const f of found) count.set(f, (count.get(f) ?? 0) + 1);
  const lost = acked.filter((a) => !count.has(a));
  // mailroom journals each of its writes in the same step (a Claude Code taker journals nothing)
  const events = (await readFile(layout.journalPath('t'), 'utf8').catch(() => '')).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const logged = new Map();
  for (const name of events.flatMap(k.journalled)) logged.set(name, (logged.get(name) ?? 0) + 1);
  const ours = acked.filter((a) => a === 'frozen-1' || taker === 'mailroom');
  return {
    kind, points, taker,
    acknowledged: acked.length,
    present: acked.length - lost.length,
    lost,
    duplicated: [...count].filter(([, c]) => c > 1).map(([t]) => t),
    unjournalled: ours.filter((a) => !logged.has(a)),
    journalledTwice: [...logged].filter(([, c]) => c > 1).map(([t]) => t),
    frozen: { code, stderr: frozen.stderr() },
    takerStderr,
  };
}

function startFrozen(args, env) {
  const proc = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => proc.on('close', (c) => resolve(c ?? -1)));
  return {
    proc,
    exited,
    stderr: () => stderr,
    /** Resolves once the `n`-th freeze line was printed and the process is stopped (state T). */
    stopped: async (n) => {
      const deadline = Date.now() + 30_000;
      while ((stderr.match(/mailroom-test: frozen /g) ?? []).length < n || (await procState(proc.pid)) !== 'T') {
        if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`the writer did not stop at its freeze point ${n}; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}

async function procState(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

function startClaude(kind, file, count, pause) {
  const proc = spawn(process.execPath, [CLAUDE, kind, file, String(count), String(pause), 'b'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => proc.on('close', (c) => resolve(c ?? -1)));
  return {
    proc,
    exited,
    out: () => out,
    err: () => err,
    waitFor: async (line) => {
      while (!out.split('\n').includes(line)) {
        if (proc.exitCode !== null) throw new Error(`claude-taker exited before "${line}": ${err}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}

/** Formats result figures on one line. */
export function frozenFigures(r) {
  return `${r.kind} · frozen ${r.points.join(' + ')} · taker ${r.taker}: acknowledged ${r.acknowledged}, present ${r.present}, lost ${r.lost.length}, duplicated ${r.duplicated.length}, journalled twice ${r.journalledTwice.length}; frozen writer exit ${r.frozen.code}`;
}
