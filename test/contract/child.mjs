// A child process of the team-store contract suite (team-store.contract.ts): opens the store named
// by a StoreSelection through the built package's `openStores` — any backend — prints `ready`,
// waits for `go` on stdin (so that all children start at once), runs one operation and prints its
// result as one JSON line. Needs `npm run build`.
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { openStores, makeInboxEntry, isMailroomError } from '../../dist/index.js';

const spec = JSON.parse(process.argv[2]);
const stores = await openStores(spec.selection);
const store = stores.team;
const { team } = spec;

const lines = createInterface({ input: process.stdin });
const go = new Promise((resolve) => lines.on('line', (l) => l === 'go' && resolve()));
process.stdout.write('ready\n');
await go;

const entry = (from, text) => makeInboxEntry({ from, text, timestamp: new Date().toISOString(), msgId: randomUUID() });
const codeOf = (err) => {
  if (isMailroomError(err)) return err.code;
  throw err;
};

const ops = {
  async claim() {
    const out = [];
    for (const id of spec.ids) {
      try {
        await store.claimTask(team, { claimant: spec.claimant, id });
        out.push({ id, won: true });
      } catch (err) {
        out.push({ id, won: false, code: codeOf(err) });
      }
    }
    return out;
  },
  async append() {
    const ids = [];
    for (let i = 0; i < spec.count; i++) {
      const { value } = await store.appendMessages(team, [{ to: spec.to, entry: entry(spec.from, `${spec.prefix} ${i}`) }]);
      ids.push(value.messages[0].entry.msg_id);
    }
    return ids;
  },
  async take() {
    const keys = [];
    for (;;) {
      const { value } = await store.takeUnread(team, spec.member, { reader: spec.reader, limit: spec.limit });
      if (value.entries.length === 0) return keys;
      keys.push(...value.entries.map((e) => e.msg_id));
      await store.acknowledge(team, spec.member, value.id);
    }
  },
  async appendKey() {
    const { value } = await store.appendMessages(team, [{ to: spec.to, entry: entry('team-lead', 'once only') }], { idempotencyKey: spec.key });
    return { replayed: value.replayed, msgId: value.messages[0].entry.msg_id };
  },
  async createKey() {
    const { value } = await store.createTask(team, { subject: 'once only', description: '' }, { idempotencyKey: spec.key });
    return { replayed: value.replayed, id: value.task.id };
  },
  async claimReader() {
    try {
      await store.claimReader(team, spec.member, { kind: 'agent', host: 'contract-host', pid: spec.pid, startedAt: Date.now() });
      return { won: true };
    } catch (err) {
      return { won: false, code: codeOf(err) };
    }
  },
};

const result = await ops[spec.op]();
process.stdout.write(`${JSON.stringify(result)}\n`);
await stores.close();
lines.close();
