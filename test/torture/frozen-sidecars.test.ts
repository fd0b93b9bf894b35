/**
 * Issue 9 item 2 for the files the store contract added (ports of the frozen-writer protection
 * onto leases and reader claims): a writer of a lease sidecar or of a reader claim, frozen right
 * before its rename (SIGSTOP by the store's test hook, $MAILROOM_TEST_FREEZE) past the stale time
 * while another process takes the lock over and writes, must not overwrite that process's write
 * when it resumes: the taker cancels its pending rename, and the resumed writer runs its step again
 * on what is there then — no entry handed out twice, no claim given to two holders. Stale time 2 s.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeInboxEntry } from '../../src/protocol/inbox.js';
import { FsTeamStore } from '../../src/store/fs/team-store.js';
import { Layout } from '../../src/store/fs/paths.js';
import { startChild, type Child } from '../helpers/child.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { makeTeam } from '../helpers/team-setup.js';

const CHILD = fileURLToPath(new URL('../contract/child.mjs', import.meta.url));
const STALE_MS = 2000;

let tmp: TempDir;
let store: FsTeamStore;
let child: Child | undefined;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-frozen-sidecar-');
  await makeTeam(tmp.path, 't', ['alice']);
  store = new FsTeamStore(tmp.path, { staleMs: STALE_MS });
});
afterEach(async () => {
  child?.proc.kill('SIGKILL');
  child = undefined;
  await tmp.cleanup();
});

/** Starts a child running one contract-child operation, frozen at `point` of its first write of a file whose path contains `part`. */
async function frozenChild(op: Record<string, unknown>, point: string, part: string): Promise<Child> {
  const spec = { selection: store.selection, team: 't', ...op };
  const env = { ...process.env, MAILROOM_LOCK_STALE_MS: String(STALE_MS), MAILROOM_TEST_FREEZE: `${point}:${part}` };
  const c = startChild(CHILD, [JSON.stringify(spec)], env);
  await c.waitForLine('ready');
  c.send('go');
  const deadline = Date.now() + 30_000;
  while (!c.stderr().includes('mailroom-test: frozen') || (await procState(c.proc.pid!)) !== 'T') {
    if (Date.now() > deadline) throw new Error(`the child did not stop at ${point}; stderr: ${c.stderr()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return c;
}

async function procState(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

const stale = () => new Promise((r) => setTimeout(r, STALE_MS + 300));

describe('a sidecar writer frozen before its rename past the stale time, then resumed', () => {
  it('lease sidecar: the take made meanwhile stands, and no entry is handed out twice', async () => {
    const sent = await store.appendMessages('t', ['one', 'two', 'three'].map((text) => ({ to: 'alice', entry: makeInboxEntry({ from: 'team-lead', text, timestamp: new Date().toISOString(), msgId: `id-${text}` }) })));
    expect(sent.value.messages).toHaveLength(3);
    child = await frozenChild({ op: 'take', member: 'alice', reader: 'frozen-reader', limit: 2 }, 'before-rename', '/mailroom/leases/');
    await stale();
    const taken = await store.takeUnread('t', 'alice', { reader: 'taker' });
    expect(taken.value.entries.map((e) => e.msg_id)).toEqual(['id-one', 'id-two', 'id-three']);
    child.proc.kill('SIGCONT');
    expect(await child.exited, child.stderr()).toBe(0);
    const childKeys = JSON.parse(child.stdout().trim().split('\n').at(-1)!) as string[];
    expect(childKeys).toEqual([]); // everything was leased to the taker when it ran again
    // The sidecar holds the taker's lease, not the frozen writer's stale copy.
    const sidecar = JSON.parse(await readFile(new Layout(tmp.path).leasePath('t', 'alice'), 'utf8')) as { leases: Array<{ reader: string; keys: string[] }> };
    expect(sidecar.leases.map((l) => [l.reader, l.keys])).toEqual([['taker', ['id-one', 'id-two', 'id-three']]]);
    const delivered = (await store.readEvents('t')).events.filter((e) => e.kind === 'delivery' && e.state === 'delivered');
    expect(delivered.map((e) => (e.kind === 'delivery' ? e.key : ''))).toEqual(['id-one', 'id-two', 'id-three']);
  }, 60_000);

  it('reader claim: the claim made meanwhile stands, and the resumed claimant is refused (TEAMMATE_RUNNING)', async () => {
    child = await frozenChild({ op: 'claimReader', member: 'alice', pid: 4242 }, 'before-link', '/mailroom/readers/');
    await stale();
    const claim = await store.claimReader('t', 'alice', { kind: 'agent', host: 'taker-host', pid: 777, startedAt: Date.now() });
    child.proc.kill('SIGCONT');
    expect(await child.exited, child.stderr()).toBe(0);
    expect(JSON.parse(child.stdout().trim().split('\n').at(-1)!)).toEqual({ won: false, code: 'TEAMMATE_RUNNING' });
    const claims = await store.readClaims('t');
    expect(claims.map((c) => [c.member, c.host, c.pid])).toEqual([['alice', 'taker-host', 777]]);
    await expect(store.beat('t', 'alice', claim.value.token, 'working')).resolves.toBeDefined();
  }, 60_000);
});
