/**
 * The bridge killed (kill -9) between a copy into a Claude Code inbox and that step's saved line,
 * with real `mailroom bridge` processes and a real redis-server (docs/bridge.md "Restart"): Claude
 * Code 2.1.332 delivers the copy and deletes it from the file before the restart. The restarted
 * bridge finds the copy's `message` event in the local journal (written under the inbox lock right
 * after the copy), so it takes the message as delivered: not copied again, marked read on Redis,
 * and a message that never landed is still copied.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../src/protocol/inbox.js';
import { BIN } from '../helpers/cli.js';
import { underClaudeLock } from '../helpers/claude-locked.js';
import { until } from '../helpers/runtime.js';
import { cleanEnv } from '../helpers/store-files.js';
import { inboxFile, TEAM, twoMachines, type TwoMachines } from './setup.js';

let t: TwoMachines | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await t?.close();
  t = undefined;
});

function cliBridge(root: string, url: string, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'bridge', '--root', root, '--team', TEAM, '--json'], { env: cleanEnv({ MAILROOM_STORE: url, ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if ((JSON.parse(line) as { kind: string }).kind === 'started') resolve({ child, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`bridge exited ${code}: ${stderr}`)));
  });
}

async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

const entry = (text: string) => ({ from: 'team-lead', text, timestamp: new Date().toISOString(), color: 'blue', read: false }) as unknown as InboxEntry;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('bridge killed between a copy into a Claude Code inbox and its saved line', () => {
  it('kill -9 there, Claude Code 2.1.332 delivers and deletes the copy, restart: not copied again, read on Redis; a copy that never landed still arrives', async () => {
    t = await twoMachines();
    await t.a.start(); // creates the team in Redis; B's bridge creates it on B
    const redis = t.a.remote.team;
    const bInbox = t.b.inbox('observer');
    const frozen = await cliBridge(t.b.root, t.server.url, { MAILROOM_TEST_FREEZE: 'bridge-copied:/observer' });
    await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('y') }]);
    await until(() => frozen.stderr().includes('mailroom-test: frozen bridge-copied'), 15_000, 'B frozen after copying y');
    await kill9(frozen.child);
    expect((await inboxFile(bInbox)).map((e) => e.text)).toEqual(['y']);
    // Claude Code 2.1.332 delivers y and removes it (temp file and rename, under its lock).
    await underClaudeLock<Array<{ text: string }>>(bInbox, (v) => v.filter((e) => e.text !== 'y'));
    // Written to Redis while B is down: never landed on B.
    await redis.appendMessages(TEAM, [{ to: 'observer', entry: entry('z') }]);
    const b = await cliBridge(t.b.root, t.server.url);
    await until(async () => (await inboxFile(bInbox)).some((e) => e.text === 'z'), 15_000, 'z on B');
    await until(async () => (await redis.readInbox(TEAM, 'observer')).find((e) => e.text === 'y')?.read === true, 15_000, 'y read on Redis');
    await pause(1_000); // more steps (the presence tick) copy nothing more
    expect((await inboxFile(bInbox)).map((e) => e.text)).toEqual(['z']);
    expect((await redis.readInbox(TEAM, 'observer')).map((e) => [e.text, e.read])).toEqual([['y', true], ['z', false]]);
    await kill9(b.child);
  }, 60_000);
});
