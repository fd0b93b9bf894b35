// One-shot verbs beyond the files send (issue 24 item 1, issue 23 item 7), each a fresh CLI
// process, interleaved with its baseline: any verb on `--store redis://` (`team send`) against
// `node -e 0`; Redis `team create` and `team spawn --backend process` (goal under 1 s); and
// `team ask` to a running process agent (it must exit as soon as it prints the reply) against
// `team send` plus one `inbox` poll; a `rediss://` URL aimed at the plain port, until it fails
// (goal under 1 s); a completion request (goal under 1 s); the watch screen's first frame in a
// real terminal (tmux; goal under 1 s). Starts its own redis-server.
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, timeNode } from './lib/stats.mjs';
import { startRedis } from './lib/redis-server.mjs';

const BIN = fileURLToPath(new URL('../bin/mailroom.js', import.meta.url));

function mailroom(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`mailroom ${args.join(' ')} exited ${code}: ${out}`))));
  });
}

/** Wall time (ms) of `node <args>`, which must fail (exit non-zero). */
function timeFailing(args, env) {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
    child.on('close', (code) => (code !== 0 ? resolve(performance.now() - start) : reject(new Error(`node ${args.join(' ')} succeeded; it should have failed`))));
  });
}

export default async function verbsBench(ctx) {
  const runs = ctx.quick ? 6 : 20;
  const env = { ...process.env, MAILROOM_COMPILE_CACHE: join(await ctx.tempRoot(), 'cache') };
  const redis = await startRedis();
  const rows = [];
  try {
    const host = await ctx.tempRoot();
    const on = (...args) => ['--store', redis.url, '--root', host, ...args];
    await mailroom(on('team', 'create', 'warm'), env); // fills the compile cache
    const send = [];
    const create = [];
    const bare = [];
    for (let i = 0; i < runs; i++) {
      create.push(await timeNode([BIN, ...on('team', 'create', `t${i}`)], env));
      bare.push(await timeNode(['-e', '0']));
      send.push(await timeNode([BIN, ...on('--team', `t${i}`, 'team', 'send', 'team-lead', `hello ${i}`)], env));
    }
    const spawnRuns = ctx.quick ? 3 : 6;
    const spawned = [];
    const spawnBare = [];
    for (let i = 0; i < spawnRuns; i++) {
      spawned.push(await timeNode([BIN, ...on('--team', 't0', 'team', 'spawn', `p${i}`, '--backend', 'process', '--model', 'worker')], env));
      spawnBare.push(await timeNode(['-e', '0']));
    }
    for (let i = 0; i < spawnRuns; i++) await mailroom(on('--team', 't0', 'team', 'stop', `p${i}`, '--force'), env).catch(() => undefined);
    // rediss:// aimed at the plain port: the command fails (exit 6) once the TLS handshake bound passes.
    const tlsUrl = redis.url.replace(/^redis:/, 'rediss:');
    const tlsFails = [];
    const tlsBare = [];
    for (let i = 0; i < spawnRuns; i++) {
      tlsFails.push(await timeFailing([BIN, '--store', tlsUrl, '--root', host, 'team', 'list'], env));
      tlsBare.push(await timeNode(['-e', '0']));
    }
    const nodeMs = median(bare);
    ctx.log(`redis: send ${median(send).toFixed(0)} ms, create ${median(create).toFixed(0)} ms, spawn --backend process ${median(spawned).toFixed(0)} ms; node -e 0 ${nodeMs.toFixed(0)} ms`);
    rows.push(
      { metric: '`mailroom team send --store redis://`, wall time', note: `median of ${runs}`, value: median(send), unit: 'ms', baseline: { label: '`node -e 0`', value: nodeMs }, goal: '≤ 2×' },
      { metric: '`mailroom team create --store redis://`, wall time', note: `median of ${runs}`, value: median(create), unit: 'ms', baseline: { label: '`node -e 0`', value: nodeMs }, goal: '< 1 000 ms' },
      { metric: '`mailroom team spawn --backend process --store redis://`, wall time', note: `median of ${spawnRuns}`, value: median(spawned), unit: 'ms', baseline: { label: '`node -e 0`', value: median(spawnBare) }, goal: '< 1 000 ms' },
      { metric: '`mailroom team list --store rediss://` to a plain server, wall time until it fails', note: `median of ${spawnRuns}`, value: median(tlsFails), unit: 'ms', baseline: { label: '`node -e 0`', value: median(tlsBare) }, goal: '< 1 000 ms' },
    );
  } finally {
    await redis.stop();
  }
  rows.push(...(await askRows(ctx, env, runs)));
  rows.push(...(await completionRows(ctx, env, runs)));
  rows.push(...(await watchScreenRows(ctx, env, ctx.quick ? 3 : 8)));
  return rows;
}

/** A TAB press as the bash script makes it (`team send <TAB>`: the team's member names), against `node -e 0`. */
async function completionRows(ctx, env, runs) {
  const root = await ctx.tempRoot();
  await mailroom(['--root', root, 'team', 'create', 'demo'], env);
  for (const name of ['alice', 'bob', 'carol']) await mailroom(['--root', root, 'team', 'spawn', name], env);
  const tab = [BIN, '--get-yargs-completions', 'mailroom', '--root', root, 'team', 'send', ''];
  const out = await mailroom(tab.slice(1), env);
  if (!out.includes('alice')) throw new Error(`completion offered no member names: ${out}`);
  const press = [];
  const bare = [];
  for (let i = 0; i < runs; i++) {
    press.push(await timeNode(tab, env));
    bare.push(await timeNode(['-e', '0']));
  }
  ctx.log(`completion: TAB ${median(press).toFixed(0)} ms; node -e 0 ${median(bare).toFixed(0)} ms`);
  return [{ metric: 'a completion request (`team send <TAB>`, offering the member names), wall time', note: `median of ${runs}`, value: median(press), unit: 'ms', baseline: { label: '`node -e 0`', value: median(bare) }, goal: '< 1 000 ms' }];
}

/**
 * The watch screen in a real terminal (tmux, 120×40): process start → the first frame showing the
 * team's header, against a node process in the same terminal printing one line. The pane is read
 * every 10 ms, so both figures carry the same polling error.
 */
async function watchScreenRows(ctx, env, runs) {
  const { execFileSync } = await import('node:child_process');
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
  } catch {
    throw new Error('the watch-screen row needs tmux: apt-get install -y tmux');
  }
  const root = await ctx.tempRoot();
  await mailroom(['--root', root, 'team', 'create', 'demo'], env);
  await mailroom(['--root', root, 'team', 'spawn', 'alice'], env);
  // A short socket path: a unix socket's path is limited to ~107 bytes, a bench temp dir can be longer.
  // One server per pane: a new session on a server still shutting down fails.
  let panes = 0;
  let socket = '';
  const tmux = (...args) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', env: { ...env, TERM: 'xterm-256color' } });
  const shellQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  /** ms from starting `command` in a fresh 120×40 pane to `text` on its screen. */
  const untilShown = async (command, text) => {
    socket = join(tmpdir(), `mailroom-bench-${process.pid}-${panes++}.sock`);
    const start = performance.now();
    tmux('new-session', '-d', '-s', 'bench', '-x', '120', '-y', '40', command);
    try {
      for (;;) {
        if (tmux('capture-pane', '-p', '-t', 'bench').includes(text)) return performance.now() - start;
        if (performance.now() - start > 30_000) throw new Error(`"${text}" not shown within 30 s by: ${command}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      tmux('kill-server');
      await rm(socket, { force: true });
    }
  };
  const envPrefix = `MAILROOM_COMPILE_CACHE=${shellQuote(env.MAILROOM_COMPILE_CACHE)}`;
  const watch = `${envPrefix} ${shellQuote(process.execPath)} ${shellQuote(BIN)} --root ${shellQuote(root)} watch demo`;
  const bare = `${shellQuote(process.execPath)} -e ${shellQuote("console.log('ready'); setTimeout(() => {}, 60000)")}`;
  await untilShown(watch, 'alice'); // fills the compile cache of the watch bundle
  const screen = [];
  const base = [];
  for (let i = 0; i < runs; i++) {
    screen.push(await untilShown(watch, 'alice'));
    base.push(await untilShown(bare, 'ready'));
  }
  ctx.log(`watch screen: first frame ${median(screen).toFixed(0)} ms; node printing a line ${median(base).toFixed(0)} ms`);
  return [{ metric: '`mailroom watch` screen in a terminal (tmux 120×40), process start → first frame with the roster', note: `median of ${runs}`, value: median(screen), unit: 'ms', baseline: { label: 'node printing one line in the same terminal', value: median(base) }, goal: '< 1 000 ms' }];
}

/** `team ask` to a running process agent whose scripted model answers each question, against `team send` + one `inbox`. */
async function askRows(ctx, env, runs) {
  const root = await ctx.tempRoot();
  const cli = (...args) => ['--root', root, '--team', 'demo', ...args];
  await mailroom(['--root', root, 'team', 'create', 'demo'], env);
  // Each question: one model request that replies, then one that ends the turn.
  const steps = Array.from({ length: runs + 2 }, (_, i) => [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: `answer ${i}` } }] }, { text: 'done' }]).flat();
  const script = join(root, 'bob.json');
  await writeFile(script, JSON.stringify(steps));
  await mailroom(cli('team', 'spawn', 'bob', '--backend', 'process', '--model', `scripted:${script}`), env);
  const asks = [];
  const base = [];
  try {
    for (let i = -1; i < runs; i++) {
      const a = await timeNode([BIN, ...cli('team', 'ask', 'bob', `question ${i}`, '--timeout', '30s')], env);
      const start = performance.now();
      await mailroom(cli('team', 'send', 'team-lead', `note ${i}`, '--as', 'bob'), env);
      await mailroom(cli('inbox', 'team-lead'), env);
      const b = performance.now() - start;
      if (i >= 0) {
        asks.push(a);
        base.push(b);
      }
    }
  } finally {
    await mailroom(cli('team', 'stop', 'bob', '--force'), env).catch(() => undefined);
  }
  ctx.log(`team ask: median ${median(asks).toFixed(0)} ms; team send + inbox ${median(base).toFixed(0)} ms`);
  return [{ metric: '`mailroom team ask` to a running process agent, wall time (exits once the reply is printed)', note: `median of ${asks.length}`, value: median(asks), unit: 'ms', baseline: { label: '`team send` + one `inbox` poll', value: median(base) }, goal: '≤ 1.5×' }];
}
