/**
 * Archivers attacked while the inbox keeps changing (docs/format.md "Inbox archive"): two
 * `mailroom inbox --archive` loops at once, each run SIGKILLed or SIGSTOPped (past the stale time)
 * at random moments, while a Claude Code 2.1.332-style writer (its lock, temp file + rename)
 * appends and marks entries read and a mailroom sender appends. Nothing acknowledged is lost,
 * nothing unread is archived, `inbox --all` lists each entry once, and the inbox still parses.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInbox } from '../../src/core/messages/inbox-read.js';
import { entryKey } from '../../src/domain/entries.js';
import { Layout } from '../../src/store/fs/paths.js';
import { openFsStores } from '../../src/store/open.js';
import { BIN } from '../helpers/cli.js';
import { killLeftovers } from '../helpers/processes.js';
import { cleanEnv } from '../helpers/store-files.js';
import { makeTeam, writeInboxFile } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let tmp: TempDir;
const pids: number[] = [];
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-archive-chaos-');
  await makeTeam(tmp.path, 't', ['a']);
});
afterEach(async () => {
  await killLeftovers(pids);
  await tmp.cleanup();
});

const env = cleanEnv({ MAILROOM_LOCK_STALE_MS: '1000' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Claude Code 2.1.332 as a writer: under its lock, read, append one entry (and every 3rd time mark all read), temp file + rename. */
const CLAUDE = `
const { createRequire } = await import('node:module');
const { readFile, writeFile, rename } = await import('node:fs/promises');
const lockfile = createRequire(process.argv[1])('proper-lockfile');
const [, path, count] = process.argv.slice(1);
for (let n = 0; n < Number(count); n++) {
  const release = await lockfile.lock(path, { stale: 10000, realpath: false, lockfilePath: path + '.lock', retries: { retries: 5000, minTimeout: 2, maxTimeout: 25 } });
  const list = JSON.parse(await readFile(path, 'utf8'));
  if (n % 3 === 2) for (const e of list) e.read = true;
  list.push({ from: 'a', text: 'cc-' + n, summary: 's', timestamp: new Date().toISOString(), color: 'blue', read: false, ccOnly: { n } });
  const tmp = path + '.tmp.' + process.pid + '.' + n;
  await writeFile(tmp, JSON.stringify(list, null, 2));
  await rename(tmp, path);
  await release();
  process.stdout.write('ack cc-' + n + '\\n');
}
`;

/** A mailroom sender through the library (dist/), one append per await. */
const SENDER = `
const { openFsStores } = await import(process.argv[1]);
const [, root, count] = process.argv.slice(1);
const store = openFsStores(root).team;
for (let n = 0; n < Number(count); n++) {
  const text = 'mr-' + n;
  await store.appendMessages('t', [{ to: 'team-lead', entry: { from: 'a', text, timestamp: new Date().toISOString(), read: false, msg_id: text } }]);
  process.stdout.write('ack ' + text + '\\n');
}
`;

function child(script: string, args: string[]) {
  const proc = spawn(process.execPath, ['--input-type=module', '-e', script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  pids.push(proc.pid!);
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<string[]>((resolve) => proc.on('close', () => resolve(out.split('\n').filter((l) => l.startsWith('ack ')).map((l) => l.slice(4)))));
  return { proc, done, stderr: () => err };
}

/** Runs `inbox --archive` again and again until `stop()`, each run killed or frozen at a random moment (or left alone). */
function archiverLoop(stopped: () => boolean) {
  const tally = { runs: 0, killed: 0, frozen: 0, failed: [] as string[] };
  const loop = (async () => {
    while (!stopped()) {
      const proc = spawn(process.execPath, [BIN, '--root', tmp.path, '--team', 't', 'inbox', '--archive'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      pids.push(proc.pid!);
      let err = '';
      proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((resolve) => proc.on('close', resolve));
      tally.runs++;
      const fate = Math.random();
      await Promise.race([exited, sleep(40 + Math.random() * 260)]);
      if (proc.exitCode === null && proc.signalCode === null) {
        if (fate < 0.4) {
          proc.kill('SIGKILL');
          tally.killed++;
        } else if (fate < 0.7) {
          proc.kill('SIGSTOP');
          tally.frozen++;
          await sleep(1_300 + Math.random() * 800);
          proc.kill('SIGCONT');
        }
      }
      const code = await exited;
      if (code !== 0 && code !== null) tally.failed.push(`exit ${code}: ${err.trim()}`);
    }
  })();
  return { loop, tally };
}

describe('two archivers killed and frozen at random while Claude Code and mailroom write', () => {
  it('lose nothing, archive nothing unread, list each entry once', async () => {
    const path = await writeInboxFile(tmp.path, 't', 'team-lead', []);
    const dist = new URL('../../dist/store/open.js', import.meta.url).href;
    const claude = child(CLAUDE, [new URL('../../package.json', import.meta.url).pathname, path, '1500']);
    const sender = child(SENDER, [dist, tmp.path, '1200']);
    let stop = false;
    const archivers = [archiverLoop(() => stop), archiverLoop(() => stop)];
    const acked = [...(await claude.done), ...(await sender.done)];
    stop = true;
    await Promise.all(archivers.map((a) => a.loop));
    expect(claude.stderr()).toBe('');
    // One last archiving, undisturbed, then the whole history.
    const store = openFsStores(tmp.path);
    await store.team.archiveInbox('t', 'team-lead');
    const archived = (await store.team.readInboxHistory('t', 'team-lead')).archived;
    const listed = (await readInbox({ root: store, team: 't', includeArchived: true })).messages.map((m) => m.entry);
    const texts = listed.map((e) => e.text);
    const tally = archivers.map((a) => a.tally);
    expect(texts.filter((t, i) => texts.indexOf(t) !== i), 'listed twice').toEqual([]);
    expect(acked.filter((t) => !texts.includes(t)), 'acknowledged, missing').toEqual([]);
    expect(archived.filter((e) => e.read !== true), 'unread archived').toEqual([]);
    // Claude Code's own fields went to the archive as written.
    expect(archived.filter((e) => e.text.startsWith('cc-')).every((e) => (e as { ccOnly?: { n: number } }).ccOnly?.n === Number(e.text.slice(3)))).toBe(true);
    // Nothing unread became read, except by Claude Code's marking (every entry before its 3rd append).
    const keys = new Set(listed.map(entryKey));
    expect(keys.size).toBe(listed.length);
    JSON.parse(await readFile(new Layout(tmp.path).inboxPath('t', 'team-lead'), 'utf8'));
    expect(tally.reduce((a, t) => a + t.killed + t.frozen, 0)).toBeGreaterThan(0);
    // A run frozen past the stale time three times over may give up (LOCK_COMPROMISED, nothing written); nothing else.
    for (const t of tally) for (const f of t.failed) expect(f).toMatch(/^exit 6: .*LOCK_COMPROMISED/s);
  }, 180_000);
});
