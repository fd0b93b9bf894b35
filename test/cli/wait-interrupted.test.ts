/**
 * Ctrl-C during `team ask` and `team send --wait` (trial 2, item 6): the message is already sent,
 * so the process prints one stderr line naming its msg_id and how to check it later
 * (`mailroom message show <id>`), then exits 130 — not a silent 130. Real CLI subprocesses, sent
 * SIGINT once the message is in the recipient's inbox (read from the store, not after a sleep).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { mailroomOk, cleanEnv } from '../helpers/store-files.js';
import { startCli, type LineChild } from '../helpers/line-child.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
let child: LineChild | undefined;
beforeEach(async () => {
  dir = await makeTempDir('mailroom-interrupt-');
  await mailroomOk(dir.path, 'team', 'create', 'demo');
  await mailroomOk(dir.path, 'team', 'spawn', 'rita');
  // rita is live (her reader claim is held) and never answers: the wait runs until interrupted.
  await openFsStores(dir.path).team.claimReader('demo', 'rita', { kind: 'agent', host: 'test-host', pid: process.pid, startedAt: Date.now() });
});
afterEach(async () => {
  await child?.stop();
  child = undefined;
  await dir.cleanup();
});

/** Resolves with the msg_id of the message containing `text` once it is in rita's inbox. */
async function sentToRita(text: string, c: LineChild): Promise<string> {
  const store = openFsStores(dir.path).team;
  const until = Date.now() + 15_000;
  for (;;) {
    const hit = (await store.readInbox('demo', 'rita')).find((e) => e.text === text);
    if (hit?.msg_id !== undefined) return hit.msg_id;
    if (Date.now() > until) throw new Error(`the message never reached rita's inbox; stderr:\n${c.stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it.each([
  [['team', 'ask', 'rita', 'Is the CSV clean?'], 'Is the CSV clean?', 'its reply'],
  [['team', 'send', 'rita', 'Please read this', '--wait', 'read'], 'Please read this', 'it to be read'],
  [['team', 'send', 'rita', 'Answer me', '--wait', 'replied'], 'Answer me', 'its reply'],
])('%j: SIGINT after the send prints the msg_id and how to check, exit 130', async (args, text, waitingFor) => {
  child = startCli(['--root', dir.path, '--team', 'demo', ...args, '--timeout', '5m'], cleanEnv());
  const id = await sentToRita(text, child);
  child.proc.kill('SIGINT');
  const code = await child.exited;
  expect(code, child.stderr()).toBe(130);
  const lines = child.stderr().split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`the message to rita was sent (msg_id ${id})`);
  expect(lines[0]).toContain(`only the wait for ${waitingFor} was interrupted`);
  expect(lines[0]).toMatch(new RegExp(`\`mailroom .*message show ${id}\``));
}, 30_000);
