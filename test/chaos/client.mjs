// A chaos-suite client (issue 21 item 8): one process that works on a team through the library
// API as it exists (dist/: run `npm run build` first) and records every operation it performs to
// <dir>/<id>.ndjson — an `invoke` line before, and `ok` / `fail` (refused: it did not happen) /
// `info` (unknown: timeout, dropped connection) after (test/chaos/history.ts). A kill -9 leaves the
// last invoke open. Usage: node client.mjs '<json config>' (see ClientConfig in ./run.ts).
//   sender   — appends messages with an idempotency key (retried under the same key when the store
//              did not answer), to the members in `to`; with `local`, on the bridge's local files
//              root (Redis runs), once the bridge has brought the team there.
//   consumer — holds `member`'s reader claim (beats every beatMs), takes unread under a lease fenced
//              with the claim's token and acknowledges it (fenced too); records as redelivered what
//              the lease counts as handed out before; exits when the claim is lost (a beat's
//              TEAMMATE_RUNNING, a take's or ack's READER_FENCED).
//   worker   — holds `member`'s reader claim, claims the next ready task, writes its metadata three
//              times and completes it, through the use cases (claimNextTask, updateTask), each write
//              carrying the claim's fencing token; drops the task on TASK_FENCED.
//   sweeper  — runs the dead-member sweep every 200 ms (as a command does: no presence, judging by the
//              store's clock members silent for ttl + grace + stallBoundMs) and records whom it declared dead.
//   mcp      — runs `mailroom mcp --as member` as a child (prints "server <pid>" for the nemesis)
//              and calls read_inbox in a loop (each call acknowledges what the previous returned);
//              records as redelivered the messages marked `redelivered`; restarts the server when it dies.
import { openSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openStores, claimNextTask, updateTask, makeInboxEntry } from '../../dist/index.js';
import { sweepDeadMembers } from '../../dist/core/members/dead-members.js';

const cfg = JSON.parse(process.argv[2]);
const fd = openSync(`${cfg.dir}/${cfg.id}.ndjson`, 'a');
const rec = (process, type, f, value = {}, error) => writeSync(fd, `${JSON.stringify({ process, type, f, time: Date.now(), value, ...(error ? { error } : {}) })}\n`);
const me = (type, f, value, error) => rec(cfg.id, type, f, value, error);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Refusals: the operation definitely did not happen. Anything else may have. */
const DEFINITE = new Set(['TEAMMATE_RUNNING', 'READER_FENCED', 'TASK_FENCED', 'TASK_ALREADY_CLAIMED', 'TASK_ALREADY_RESOLVED', 'TASK_CONFLICT', 'TASK_BLOCKED', 'AGENT_BUSY', 'NOT_PERMITTED', 'NO_READY_TASK', 'TASK_NOT_FOUND', 'MEMBER_NOT_FOUND', 'TEAM_NOT_FOUND', 'INVALID_ARGUMENT', 'STORE_FULL']);
const codeOf = (err) => (err && typeof err.code === 'string' ? err.code : 'ERROR');
const outcome = (err) => (DEFINITE.has(codeOf(err)) ? 'fail' : 'info');

async function openStore() {
  for (;;) {
    try {
      return await openStores(cfg.selection, { storeTimeoutMs: cfg.storeTimeoutMs, allowVolatile: true, onWarning: () => undefined, lock: { onWarning: () => undefined } });
    } catch {
      await sleep(200);
    }
  }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/** Takes `member`'s reader claim (evicting a holder proved dead on this host), then beats it. */
async function holdClaim(stores, member, onLost) {
  const store = stores.team;
  const holder = { kind: 'agent', host: stores.host.hostId, pid: process.pid, startedAt: Date.now() };
  let claim;
  while (!claim) {
    me('invoke', 'read-claim', { member });
    try {
      claim = (await store.claimReader(cfg.team, member, holder, { ttlMs: cfg.ttlMs })).value;
      me('ok', 'read-claim', { member });
    } catch (err) {
      const h = err?.details?.holder;
      if (codeOf(err) === 'TEAMMATE_RUNNING' && h && h.host === holder.host && !alive(h.pid)) {
        try {
          claim = (await store.claimReader(cfg.team, member, holder, { ttlMs: cfg.ttlMs, evict: { host: h.host, pid: h.pid, startedAt: h.startedAt } })).value;
          me('ok', 'read-claim', { member });
          break;
        } catch (again) {
          me(outcome(again), 'read-claim', {}, codeOf(again));
        }
      } else me(outcome(err), 'read-claim', {}, codeOf(err));
      await sleep(150);
    }
  }
  (async () => {
    for (;;) {
      await sleep(cfg.beatMs);
      me('invoke', 'beat', { member });
      try {
        await store.beat(cfg.team, member, claim.token, 'working');
        me('ok', 'beat', { member });
      } catch (err) {
        me(outcome(err), 'beat', {}, codeOf(err));
        if (codeOf(err) === 'TEAMMATE_RUNNING') onLost();
      }
    }
  })();
  return claim;
}

/** An MCP message view the server marked as handed out before (docs/mcp.md "Delivery guarantee"). */
const isRedelivery = (view) => view.redelivered === true;

/** A local sender's team comes from the bridge (created at its start, roster synced): wait for it. */
async function untilBridged(stores) {
  for (;;) {
    const config = await stores.team.readConfig(cfg.team).catch(() => undefined);
    if (config && cfg.to.every((m) => config.members.some((x) => x.name === m))) return;
    await sleep(200);
  }
}

async function sender(stores) {
  if (cfg.local) await untilBridged(stores);
  for (let n = 0; ; n++) {
    const to = cfg.to[n % cfg.to.length];
    const key = `${cfg.id}-${n}`;
    const entry = makeInboxEntry({ from: 'team-lead', text: key, timestamp: new Date().toISOString(), msgId: key });
    me('invoke', 'send', { msgId: key, to });
    let last;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const out = await stores.team.appendMessages(cfg.team, [{ to, entry }], { idempotencyKey: key });
        me('ok', 'send', { msgId: out.value.messages[0]?.entry.msg_id ?? key, to });
        last = undefined;
        break;
      } catch (err) {
        last = err;
        if (codeOf(err) !== 'STORE_UNAVAILABLE' && codeOf(err) !== 'LOCK_TIMEOUT') break;
      }
    }
    if (last) me(outcome(last), 'send', {}, codeOf(last));
    await sleep(cfg.pauseMs);
  }
}

async function consumer(stores) {
  const claim = await holdClaim(stores, cfg.member, () => process.exit(0));
  for (;;) {
    me('invoke', 'take', { member: cfg.member });
    let lease;
    try {
      // Fenced with the claim token: a consumer whose claim was taken over gets READER_FENCED.
      lease = (await stores.team.takeUnread(cfg.team, cfg.member, { reader: claim.token, claim: claim.token, leaseMs: cfg.leaseMs, limit: 5 })).value;
      const ids = lease.entries.map((e) => e.msg_id);
      // A redelivery is what the store counts as handed out more than once (Lease.deliveries).
      me('ok', 'take', { member: cfg.member, msgIds: ids, redelivered: ids.filter((_, i) => (lease.deliveries[i] ?? 1) > 1) });
    } catch (err) {
      me(outcome(err), 'take', {}, codeOf(err));
      // Another reader took the claim over: this one stops (its lease goes to the new reader).
      if (codeOf(err) === 'READER_FENCED') process.exit(0);
      await sleep(100);
      continue;
    }
    if (lease.id) {
      const ids = lease.entries.map((e) => e.msg_id);
      me('invoke', 'ack', { member: cfg.member, msgIds: ids });
      try {
        await stores.team.acknowledge(cfg.team, cfg.member, lease.id, { claim: claim.token });
        me('ok', 'ack', { member: cfg.member, msgIds: ids });
      } catch (err) {
        me(outcome(err), 'ack', {}, codeOf(err));
        if (codeOf(err) === 'READER_FENCED') process.exit(0);
      }
    }
    await sleep(cfg.pauseMs);
  }
}

async function worker(stores) {
  await holdClaim(stores, cfg.member, () => process.exit(0));
  const as = cfg.member;
  const base = { root: stores, team: cfg.team };
  for (;;) {
    me('invoke', 'claim', { owner: as });
    let task;
    try {
      task = await claimNextTask({ ...base, as });
      me('ok', 'claim', { owner: as, ...(task ? { task: task.id } : {}) });
    } catch (err) {
      me(outcome(err), 'claim', {}, codeOf(err));
    }
    if (!task) {
      await sleep(150);
      continue;
    }
    let fenced = false;
    for (let step = 1; step <= 3 && !fenced; step++) {
      await sleep(cfg.pauseMs * 5);
      me('invoke', 'write', { task: task.id, owner: as });
      try {
        await updateTask({ ...base, id: task.id, as, fencingToken: task.fencingToken, metadata: { step, by: cfg.id } });
        me('ok', 'write', { task: task.id, owner: as });
      } catch (err) {
        me(outcome(err), 'write', {}, codeOf(err));
        // The task was taken back (TASK_FENCED): stop working on it.
        fenced = codeOf(err) === 'TASK_FENCED';
      }
    }
    if (fenced) continue;
    me('invoke', 'complete', { task: task.id, owner: as });
    try {
      await updateTask({ ...base, id: task.id, as, fencingToken: task.fencingToken, status: 'completed', metadata: { result: `done by ${cfg.id}` } });
      me('ok', 'complete', { task: task.id, owner: as });
    } catch (err) {
      me(outcome(err), 'complete', {}, codeOf(err));
    }
  }
}

async function sweeper(stores) {
  for (;;) {
    me('invoke', 'sweep', {});
    try {
      const swept = await sweepDeadMembers({ root: stores, team: cfg.team, graceMs: cfg.graceMs, stallBoundMs: cfg.stallBoundMs, by: 'team-lead' });
      me('ok', 'sweep', { dead: swept.map((s) => ({ member: s.name, tasks: s.unassigned.map((t) => t.id) })) });
    } catch (err) {
      me(outcome(err), 'sweep', {}, codeOf(err));
    }
    await sleep(200);
  }
}

async function mcp() {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const bin = fileURLToPath(new URL('../../bin/mailroom.js', import.meta.url));
  const env = { ...process.env, MAILROOM_STORE: cfg.selection.kind === 'redis' ? cfg.selection.url : '', MAILROOM_ALLOW_VOLATILE: '1', MAILROOM_STORE_TIMEOUT: String(cfg.storeTimeoutMs) };
  const root = cfg.selection.kind === 'redis' ? cfg.selection.hostRoot : cfg.selection.root;
  for (;;) {
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--root', root, '--team', cfg.team, '--as', cfg.member], env, stderr: process.env.MAILROOM_CHAOS_VERBOSE ? 'inherit' : 'ignore' });
    const client = new Client({ name: 'mailroom-chaos', version: '0.0.0' });
    let closed = false;
    transport.onclose = () => (closed = true);
    const connecting = `${cfg.id}/start`;
    rec(connecting, 'invoke', 'read-claim', { member: cfg.member });
    try {
      await client.connect(transport, { timeout: 30_000 });
    } catch (err) {
      rec(connecting, 'info', 'read-claim', {}, codeOf(err));
      await client.close().catch(() => undefined);
      await sleep(200);
      continue;
    }
    const id = `${cfg.id}/srv${transport.pid}`;
    rec(connecting, 'info', 'read-claim', {});
    rec(id, 'ok', 'read-claim', { member: cfg.member });
    process.stdout.write(`server ${transport.pid}\n`);
    while (!closed) {
      rec(id, 'invoke', 'take', { member: cfg.member });
      try {
        const res = await client.callTool({ name: 'read_inbox', arguments: { limit: 5 } }, undefined, { timeout: 10_000 });
        if (res.isError) {
          rec(id, 'fail', 'take', {}, res.structuredContent?.error?.code ?? 'ERROR');
          await sleep(200);
        } else {
          const messages = res.structuredContent?.messages ?? [];
          rec(id, 'ok', 'take', { member: cfg.member, msgIds: messages.map((m) => m.msg_id), redelivered: messages.filter(isRedelivery).map((m) => m.msg_id) });
        }
      } catch (err) {
        rec(id, 'info', 'take', {}, codeOf(err));
        break;
      }
      await sleep(cfg.pauseMs);
    }
    await client.close().catch(() => undefined);
  }
}

const roles = { sender, consumer, worker, sweeper, mcp };
process.on('unhandledRejection', () => undefined);
if (cfg.role === 'mcp') await mcp();
else await roles[cfg.role](await openStore());
