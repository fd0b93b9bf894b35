/**
 * The chaos run (issue 21 item 8): one team on one backend (files in a temp dir, or a real
 * redis-server with appendonly yes + appendfsync always on a free port), many client processes
 * (./client.mjs: senders, consumers, task workers, an MCP member, a sweeper) recording a history
 * while a seeded nemesis acts — kill -9 and SIGSTOP/SIGCONT of clients (a stopped files client
 * may be frozen holding a lock), on files a frozen writer (a sender stopped by the store's test
 * hook inside its inbox write, holding the lock, resumed around the lock's stale time), kill -9 and SIGSTOP of the `mailroom mcp`
 * server, SIGSTOP and kill -9 + restart of redis-server, and on Redis runs kill -9 + restart and
 * SIGSTOP of a `mailroom bridge` (./bridge.ts) carrying a local sender's messages, and a second
 * bridge on the same root (refused) — then a quiet drain, the final state, and the checker.
 * The first fault is always a worker SIGSTOPped past the sweep's bound (`stop-long`), so every run
 * declares a member dead at least once. Every process is started in its own process group and killed with it at the end (also on
 * failure); the run is bounded by `seconds`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openFsStores, openStores } from '../../src/store/open.js';
import type { StoreSelection, Stores } from '../../src/store/selection.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { secondBridge, startChaosBridge, type BridgeConfig, type ChaosBridge } from './bridge.js';
import { check, type CheckResult } from './checker.js';
import { parseHistory, type Op } from './history.js';

/** Options of {@link runChaos}. */
export interface ChaosOptions {
  backend: 'fs' | 'redis';
  /** How long the nemesis acts (s). */
  seconds: number;
  /** Seed of the nemesis' choices (default: from the clock; printed in the report). */
  seed?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** What a run returns. */
export interface ChaosReport {
  backend: 'fs' | 'redis';
  seed: number;
  seconds: number;
  history: Op[];
  result: CheckResult;
}

/** The configuration a client gets (as JSON in argv). */
export interface ClientConfig {
  role: 'sender' | 'consumer' | 'worker' | 'sweeper' | 'mcp';
  /** A sender on the bridge's local files root (Redis runs): waits for the bridged roster first. */
  local?: boolean;
  /** The frozen files writer: stops itself (SIGSTOP) in its first inbox write, holding the lock, right before its rename. */
  freeze?: boolean;
  id: string;
  dir: string;
  team: string;
  selection: StoreSelection;
  member?: string;
  to?: string[];
  storeTimeoutMs: number;
  ttlMs: number;
  beatMs: number;
  leaseMs: number;
  graceMs: number;
  /** The store stall the sweeper tolerates (ms): `SweepOptions.stallBoundMs`. */
  stallBoundMs: number;
  pauseMs: number;
}

const CLIENT = fileURLToPath(new URL('./client.mjs', import.meta.url));
const TEAM = 'chaos';
/**
 * The files lock's stale time in every client of a files run (ms; default 10 s): a frozen writer
 * held past it has its lock taken over while it sleeps (src/store/fs/lock-dir.ts), within a short run.
 */
const LOCK_STALE_MS = 2_000;
/**
 * Client timings (ms). `stallBoundMs` is the store stall the sweeper (no presence, like a command)
 * tolerates (src/core/members/liveness.ts; 120 s by default): 3 s, longer than the longest stall
 * the nemesis makes of the store (a 2.5 s SIGSTOP of redis-server; a restart), so a sweep judges
 * a member silent for ttl + grace + 3 s (5 s) and sweeps do happen within a short run (a client
 * SIGSTOPped for up to 5 s, not yet replaced).
 */
const TIMING = { storeTimeoutMs: 2_000, ttlMs: 1_500, beatMs: 300, leaseMs: 1_500, graceMs: 500, stallBoundMs: 3_000, pauseMs: 30 };
/** Tasks on the board: enough that the workers do not run out within the run (≈ 5 claims/s on a loaded machine). */
const tasksFor = (seconds: number): number => Math.max(60, Math.ceil(seconds * 6));

/** A client role and the member it acts as. */
type Role = Pick<ClientConfig, 'role' | 'member' | 'to' | 'local' | 'freeze'>;
const ROLES: Role[] = [
  { role: 'sender', to: ['alice', 'bob', 'carol'] },
  { role: 'sender', to: ['bob', 'carol', 'alice'] },
  { role: 'consumer', member: 'alice' },
  { role: 'consumer', member: 'bob' },
  { role: 'mcp', member: 'carol' },
  { role: 'worker', member: 'dave' },
  { role: 'worker', member: 'erin' },
  { role: 'sweeper' },
];
/** The frozen files writer's role (fs runs: one from the start, a new one per `freeze` fault). */
const FROZEN: Role = { role: 'sender', to: ['alice', 'bob', 'carol'], freeze: true };
/** On Redis runs: a sender on the other side of the bridge. */
const BRIDGED: Role[] = [{ role: 'sender', local: true, to: ['carol', 'alice', 'bob'] }];

interface Running {
  id: string;
  role: Role;
  proc: ChildProcess;
  /** The `mailroom mcp` server's pid (mcp role), from the client's stdout. */
  serverPid?: number;
  /** A `freeze` client: resolves once it stopped itself at its freeze point (stderr says so). */
  frozen?: Promise<boolean>;
  stopped: boolean;
}

/** Runs one chaos run and checks its history. Cleans up every process and directory it made. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const seed = options.seed ?? Date.now() % 1_000_000;
  const rand = mulberry32(seed);
  const log = options.log ?? (() => undefined);
  const tmp = await makeTempDir(`mailroom-chaos-${options.backend}-`);
  const dir = join(tmp.path, 'history');
  await mkdir(dir);
  let redis: RedisServer | undefined;
  let bridge: ChaosBridge | undefined;
  let bridgeConfig: BridgeConfig | undefined;
  const running = new Map<string, Running>();
  const nemesisOps: Op[] = [];
  const note = (fault: string, target: string): void => {
    log(`${new Date().toISOString()} ${fault} ${target}`);
    nemesisOps.push({ process: 'nemesis', type: 'info', f: 'nemesis', time: Date.now(), value: { fault, target } });
  };
  let stores: Stores | undefined;
  let incarnation = 0;
  let closing = false;
  try {
    if (options.backend === 'redis') redis = await startRedis({ aof: true });
    const selection: StoreSelection = redis ? { kind: 'redis', url: redis.url, hostRoot: join(tmp.path, 'host') } : { kind: 'fs', root: join(tmp.path, 'root') };
    stores = await openStores(selection, { allowVolatile: true });
    await setUp(stores, tasksFor(options.seconds));
    const local: StoreSelection = { kind: 'fs', root: join(tmp.path, 'local') };
    if (redis) {
      bridgeConfig = { root: local.root, url: redis.url, team: TEAM, storeTimeoutMs: TIMING.storeTimeoutMs, verbose: process.env.MAILROOM_CHAOS_VERBOSE !== undefined };
      bridge = await startChaosBridge(bridgeConfig);
    }
    const start = (role: Role): Running | undefined => {
      if (closing) return undefined;
      const id = `${role.local ? 'local-' : ''}${role.role}${role.member ? `-${role.member}` : ''}#${incarnation++}`;
      const config: ClientConfig = { ...role, id, dir, team: TEAM, selection: role.local ? local : selection, ...TIMING };
      const env = { ...process.env, MAILROOM_LOCK_STALE_MS: String(LOCK_STALE_MS), ...(role.freeze ? { MAILROOM_TEST_FREEZE: 'before-rename:/inboxes/' } : {}) };
      const proc = spawn(process.execPath, [CLIENT, JSON.stringify(config)], { detached: true, env, stdio: ['ignore', 'pipe', role.freeze ? 'pipe' : process.env.MAILROOM_CHAOS_VERBOSE ? 'inherit' : 'ignore'] });
      const r: Running = { id, role, proc, stopped: false };
      if (role.freeze) {
        r.frozen = new Promise((resolve) => {
          let err = '';
          proc.stderr?.on('data', (d: Buffer) => {
            err += d.toString();
            if (err.includes('mailroom-test: frozen')) resolve(true);
          });
          proc.once('exit', () => resolve(false));
        });
        thawLater(r, rand, note);
      }
      let out = '';
      proc.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        for (const m of out.matchAll(/server (\d+)\n/g)) r.serverPid = Number(m[1]);
        out = out.slice(out.lastIndexOf('\n') + 1);
      });
      proc.once('exit', () => running.delete(id));
      running.set(id, r);
      return r;
    };
    const first = [...ROLES, ...(bridge ? BRIDGED : [FROZEN])].map((role) => start(role)!.id);
    await untilWorking(dir, first, log);
    log(`${new Date().toISOString()} all clients working; nemesis starts`);
    const end = Date.now() + options.seconds * 1000;
    // The first fault of every run: a worker stopped long enough to be declared dead (so the
    // sweep, its taking back and the woken worker's fenced writes happen in every short run).
    // Forced until a worker on a task was found for it (none may be at first on a loaded machine);
    // the quiet phase waits until that stop has lasted its whole length, or no sweep could declare
    // the worker dead (a search of up to 5 s left it stopped ~2 s before everything was resumed).
    let longUntil = 0;
    const onLongStop = (until: number) => (longUntil = until);
    while (Date.now() < end) {
      await sleep(400 + rand() * 800);
      await strike({ dir, rand, running: [...running.values()], redis, bridge, bridgeConfig, start, note, log, onLongStop, longStopActive: () => Date.now() < longUntil }, longUntil === 0 ? 'stop-long' : undefined);
    }
    if (longUntil > Date.now()) await sleep(longUntil - Date.now() + 500);
    // Quiet: everything runs again, consumers drain, then every client is stopped for good.
    closing = true;
    for (const r of running.values()) signal(r.proc, 'SIGCONT');
    redis?.proc().kill('SIGCONT');
    if (bridge) {
      if (!bridge.proc()) bridge.restart();
      signalGroup(bridge.proc(), 'SIGCONT');
    }
    // The bridge carries what the local senders wrote last (it may have been stopped until now).
    await sleep(bridge ? 6_000 : 3_000);
    for (const r of [...running.values()]) {
      note('end', r.id);
      signal(r.proc, 'SIGKILL');
    }
    await waitGone([...running.values()]);
    if (bridge) {
      await bridge.stop();
      bridge = undefined;
    }
    nemesisOps.push(...(await finalState(stores, 'final')));
    // What is still unread on the bridge's local side is in an inbox a reader there gets.
    if (redis) nemesisOps.push(...(await finalState(openFsStores(local.root), 'final-local')));
    const history = [...nemesisOps, ...(await readHistories(dir))];
    return { backend: options.backend, seed, seconds: options.seconds, history, result: check(history) };
  } finally {
    closing = true;
    for (const r of running.values()) signal(r.proc, 'SIGKILL');
    await waitGone([...running.values()]);
    await bridge?.stop();
    await stores?.close().catch(() => undefined);
    if (redis) {
      redis.proc().kill('SIGCONT');
      await redis.stop();
    }
    await tmp.cleanup();
  }
}

/** Waits until every client in `ids` has completed an operation (at most a minute, on a loaded machine). */
async function untilWorking(dir: string, ids: readonly string[], log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const waiting: string[] = [];
    for (const id of ids) {
      const text = await readFile(join(dir, `${id}.ndjson`), 'utf8').catch(() => '');
      if (!/"type":"(ok|fail)"/.test(text)) waiting.push(id);
    }
    if (waiting.length === 0) return;
    if (Date.now() > deadline) return log(`still starting after 60 s: ${waiting.join(', ')}`);
    await sleep(200);
  }
}

async function setUp(stores: Stores, tasks: number): Promise<void> {
  const lead = { agentId: `team-lead@${TEAM}`, name: 'team-lead' };
  await stores.team.createTeam({ name: TEAM, createdAt: Date.now(), leadAgentId: lead.agentId, members: [lead] } as Parameters<Stores['team']['createTeam']>[0]);
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) await stores.team.addMember(TEAM, { agentId: `${name}@${TEAM}`, name } as Parameters<Stores['team']['addMember']>[1]);
  for (let i = 1; i <= tasks; i++) await stores.team.createTask(TEAM, { subject: `chaos task ${i}`, description: 'written three times, then completed' });
}

/** What every consumer member still has unread: a consumer would get it next. */
async function finalState(stores: Stores, process: string): Promise<Op[]> {
  const out: Op[] = [];
  for (const member of ['alice', 'bob', 'carol']) {
    const unread = (await stores.team.readInbox(TEAM, member).catch(() => [])).filter((e) => !e.read).map((e) => e.msg_id ?? '');
    out.push({ process, type: 'ok', f: 'final', time: Date.now(), value: { member, unread } });
  }
  return out;
}

interface Strike {
  /** Where the clients write their histories. */
  dir: string;
  rand: () => number;
  running: Running[];
  redis: RedisServer | undefined;
  bridge: ChaosBridge | undefined;
  bridgeConfig: BridgeConfig | undefined;
  start: (role: Role) => Running | undefined;
  note: (fault: string, target: string) => void;
  log: (line: string) => void;
  /** Told when a `stop-long` stopped a worker, with the time (epoch ms) it is resumed. */
  onLongStop?: (until: number) => void;
  /** True while a `stop-long` victim is stopped. */
  longStopActive?: () => boolean;
}

/**
 * How long a `stop-long` keeps a worker stopped (ms): past the silence a sweep needs (ttl + grace
 * + the stall bound, 5 s) by 2 s, not replaced meanwhile — it is declared dead, then wakes up.
 */
const STOP_LONG_MS = TIMING.ttlMs + TIMING.graceMs + TIMING.stallBoundMs + 2_000;

/** One fault: `forced`, or chosen at random among those that apply. */
async function strike(s: Strike, forced?: string): Promise<void> {
  const clients = s.running.filter((r) => !r.stopped);
  const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(s.rand() * list.length)];
  // While a worker is stopped long, redis-server is not restarted: a restart rightly defers every
  // judgment (beats are judged no earlier than the server's start), so the worker would outlast its
  // stop undeclared and the run's check that a sweep declared it dead fails (seed 386318: kill-redis
  // during the stop, 0 declared dead). A stop of redis-server is a stall, within the stop's bound.
  const storeFaults = s.redis ? (s.longStopActive?.() ? ['stop-redis'] : ['stop-redis', 'kill-redis']) : ['freeze'];
  const faults = ['kill', 'stop', 'stop', 'stop', 'stop-long', 'kill-mcp', 'kill-mcp', 'stop-mcp', ...storeFaults, ...(s.bridge ? ['kill-bridge', 'stop-bridge', 'second-bridge'] : [])];
  const fault = forced ?? pick(faults)!;
  if (fault === 'stop-long') {
    const victim = await workingOnTask(s.dir, clients.filter((r) => r.role.role === 'worker'));
    if (!victim) return s.log('stop-long: no worker on a task');
    s.note('stop', victim.id);
    victim.stopped = true;
    signal(victim.proc, 'SIGSTOP');
    s.onLongStop?.(Date.now() + STOP_LONG_MS);
    setTimeout(() => {
      victim.stopped = false;
      s.note('cont', victim.id);
      signal(victim.proc, 'SIGCONT');
    }, STOP_LONG_MS).unref();
    return;
  }
  if (fault === 'kill' || fault === 'stop') {
    // While a worker is stopped long, the sweeper is spared: stopped itself, it counts the stall
    // and declares nobody dead, and the run's check that a sweep declared the worker dead fails.
    const victim = pick(s.longStopActive?.() ? clients.filter((r) => r.role.role !== 'sweeper') : clients);
    if (!victim) return;
    if (fault === 'kill') {
      s.note('kill', victim.id);
      signal(victim.proc, 'SIGKILL');
      setTimeout(() => s.start({ ...victim.role, freeze: false }), 300).unref();
      return;
    }
    const ms = 200 + s.rand() * 4_800;
    s.note('stop', victim.id);
    victim.stopped = true;
    signal(victim.proc, 'SIGSTOP');
    // A member still stopped once the sweep may have declared it dead (claim ttl + grace) is
    // taken over by a new process of the same member, as a supervisor restarts a teammate that
    // looks dead; the old one then wakes up.
    const replaceAt = TIMING.ttlMs + TIMING.graceMs + 700;
    if (victim.role.member && ms > replaceAt + 200) setTimeout(() => s.start(victim.role), replaceAt).unref();
    setTimeout(() => {
      victim.stopped = false;
      s.note('cont', victim.id);
      signal(victim.proc, 'SIGCONT');
    }, ms).unref();
    return;
  }
  if (fault === 'kill-mcp') {
    const m = clients.find((r) => r.role.role === 'mcp' && r.serverPid !== undefined);
    if (!m?.serverPid) return s.log(`kill-mcp: no MCP server running (${clients.filter((r) => r.role.role === 'mcp').length} mcp clients)`);
    s.note('kill-mcp', `${m.id}/srv${m.serverPid}`);
    try {
      process.kill(m.serverPid, 'SIGKILL');
    } catch {
      // already gone
    }
    return;
  }
  if (fault === 'stop-mcp') {
    // The server alone (its client waits on its call): a stall of the hand-out, not a death.
    const m = clients.find((r) => r.role.role === 'mcp' && r.serverPid !== undefined);
    if (!m?.serverPid) return;
    const pid = m.serverPid;
    s.note('stop-mcp', `${m.id}/srv${pid}`);
    signalPid(pid, 'SIGSTOP');
    await sleep(200 + s.rand() * 2_800);
    signalPid(pid, 'SIGCONT');
    s.note('cont-mcp', `${m.id}/srv${pid}`);
    return;
  }
  if (fault === 'kill-bridge' || fault === 'stop-bridge' || fault === 'second-bridge') return bridgeFault(s, fault);
  if (fault === 'freeze') return freezeWriter(s);
  const redis = s.redis!;
  if (fault === 'stop-redis') {
    const ms = 200 + s.rand() * 2_300;
    s.note('stop-redis', 'redis');
    redis.proc().kill('SIGSTOP');
    await sleep(ms);
    redis.proc().kill('SIGCONT');
    s.note('cont-redis', 'redis');
    return;
  }
  s.note('kill-redis', 'redis');
  await redis.restart();
}

/**
 * A worker whose history shows it on a task right now (its last operation is a claim that got one,
 * or a write), so that a sweep declaring it dead has a task to take back (and says so); polled for
 * up to 5 s.
 */
async function workingOnTask(dir: string, workers: readonly Running[]): Promise<Running | undefined> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    for (const w of workers) {
      const lines = (await readFile(join(dir, `${w.id}.ndjson`), 'utf8').catch(() => '')).trim().split('\n');
      const last = lines.at(-1) ?? '';
      if (/"f":"write"/.test(last) || (/"type":"ok","f":"claim"/.test(last) && /"task":/.test(last))) return w;
    }
    await sleep(50);
  }
  return undefined;
}

/**
 * The frozen files writer (fs runs): a new sender that stops itself in its first inbox write,
 * holding the inbox lock, right before its rename ({@link thawLater} resumes it). The previous
 * frozen writer is killed first, so there is one at a time.
 */
function freezeWriter(s: Strike): void {
  const previous = s.running.find((r) => r.role.freeze === true && !r.stopped);
  if (previous) {
    s.note('kill', previous.id);
    signal(previous.proc, 'SIGKILL');
  }
  s.start(FROZEN);
}

/**
 * Once a frozen writer stopped itself, resumes it after 0.5–5 s — around the 2 s stale time, so
 * its lock may have been taken over and the inbox written meanwhile (src/store/fs/lock-dir.ts).
 */
function thawLater(r: Running, rand: () => number, note: (fault: string, target: string) => void): void {
  void r.frozen?.then((frozen) => {
    if (!frozen) return;
    note('freeze', r.id);
    r.stopped = true;
    setTimeout(() => {
      r.stopped = false;
      note('thaw', r.id);
      signal(r.proc, 'SIGCONT');
    }, 500 + rand() * 4_500).unref();
  });
}

/** kill -9 (restarted 300 ms later), SIGSTOP for 0.2–5 s, or a second bridge on the same root (must be refused). */
async function bridgeFault(s: Strike, fault: 'kill-bridge' | 'stop-bridge' | 'second-bridge'): Promise<void> {
  const bridge = s.bridge!;
  const proc = bridge.proc();
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  if (fault === 'kill-bridge') {
    s.note('kill-bridge', `bridge/${proc.pid}`);
    signalGroup(proc, 'SIGKILL');
    await new Promise((resolve) => (proc.exitCode !== null || proc.signalCode !== null ? resolve(undefined) : proc.once('exit', resolve)));
    setTimeout(() => bridge.restart(), 300).unref();
    return;
  }
  if (fault === 'stop-bridge') {
    s.note('stop-bridge', `bridge/${proc.pid}`);
    signalGroup(proc, 'SIGSTOP');
    await sleep(200 + s.rand() * 4_800);
    signalGroup(proc, 'SIGCONT');
    s.note('cont-bridge', `bridge/${proc.pid}`);
    return;
  }
  s.note('second-bridge', `bridge/${proc.pid}`);
  const refused = await secondBridge(s.bridgeConfig!);
  // Not refused: it ran beside the first (and was killed); its copies, if doubled, show as duplicates.
  s.note(refused ? 'second-bridge-refused' : 'second-bridge-ran', `bridge/${proc.pid}`);
}

function signalGroup(proc: ChildProcess | undefined, sig: NodeJS.Signals): void {
  if (proc) signal(proc, sig);
}

function signalPid(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone
  }
}

function signal(proc: ChildProcess, sig: NodeJS.Signals): void {
  if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
  try {
    process.kill(-proc.pid, sig);
  } catch {
    // the group is gone
  }
}

async function waitGone(list: readonly Running[]): Promise<void> {
  await Promise.all(list.map((r) => (r.proc.exitCode !== null || r.proc.signalCode !== null ? undefined : new Promise((resolve) => r.proc.once('exit', resolve)))));
}

async function readHistories(dir: string): Promise<Op[]> {
  const ops: Op[] = [];
  for (const name of await readdir(dir)) ops.push(...parseHistory(await readFile(join(dir, name), 'utf8')));
  return ops;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A small seeded PRNG (mulberry32), so a run's faults can be replayed from its seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
