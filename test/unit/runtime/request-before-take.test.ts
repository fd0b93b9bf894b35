/**
 * A woken teammate's model request goes out before its take commits (issue 24: delivery latency;
 * src/runtime/turn.ts `commitLooked`, TeamStore.lookUnread): on files the teammate looks at its
 * unread entries, makes the request, and takes them after. These tests try to break that order:
 * - the take fails after the request was made: nothing the model answered acts (its SendMessage is
 *   never sent), the answer is not kept in the conversation, and the message comes again;
 * - the take hands out other entries than the look saw (one more landed in between): the request is
 *   cancelled, its answer dropped, and the next request carries both;
 * - the team's view changed between the look and the take: the same, under the new view;
 * - an entry that needs judging (a lead-only message from someone else, whose refusal writes):
 *   the take commits before the request, as before.
 * Each first checks, from the model's side, that the lease did not exist yet when the request came
 * (so the new order is what runs), or did (the judged case).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../../src/core/messages/send.js';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { createScriptedModel, type ScriptedTurn } from '../../../src/runtime/models/scripted.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import type { ModelRequest } from '../../../src/runtime/models/types.js';
import { Layout } from '../../../src/store/fs/paths.js';
import { openFsStores } from '../../../src/store/open.js';
import { lastUserText, until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice', 'bob']);
});
afterEach(() => dir.cleanup());

const stores = () => openFsStores(dir.path);
const inbox = async (agent: string) => (await readInbox({ root: stores(), team: 't', agent })).messages.map((m) => m.entry);
const sidecar = () => new Layout(dir.path).leasePath('t', 'alice');
const inboxFile = () => new Layout(dir.path).inboxPath('t', 'alice');

/** The lease keys recorded in alice's sidecar now (none when it is missing). */
function leasedKeys(): string[] {
  try {
    return (JSON.parse(readFileSync(sidecar(), 'utf8')) as { leases: Array<{ keys: string[] }> }).leases.flatMap((l) => l.keys);
  } catch {
    return [];
  }
}

/** Appends entries to alice's inbox file in one synchronous rename, as Claude Code writes it (no lock taken: a reader never needs one). */
function appendRaw(...entries: Array<{ from: string; text: string }>): void {
  const list = JSON.parse(readFileSync(inboxFile(), 'utf8')) as unknown[];
  for (const e of entries) list.push({ from: e.from, text: e.text, timestamp: new Date().toISOString(), read: false });
  writeFileSync(`${inboxFile()}.raw-tmp`, JSON.stringify(list, null, 2));
  renameSync(`${inboxFile()}.raw-tmp`, inboxFile());
}

/**
 * Runs alice with `turns`; a first message ("warm up") is answered by the first turn and judges the
 * team open, so the next send to the idle teammate takes the looked-at path. Returns the model,
 * the log and a stop function; `onCall` sees every call after the warm-up.
 */
async function runAlice(turns: ScriptedTurn[], onCall: (request: ModelRequest, index: number) => void, onLog: (line: string) => void = () => undefined) {
  const log: string[] = [];
  let state = '';
  const model = createScriptedModel({ turns: [{ text: 'warmed up' }, ...turns], onCall: (r, i) => (i > 0 ? onCall(r, i) : undefined) });
  const controller = new AbortController();
  const running = runTeammate({
    root: stores(), team: 't', name: 'alice', model, signal: controller.signal, takesTasks: false, pollMs: 60_000,
    log: (line) => (log.push(line), onLog(line)), onState: (s) => (state = s),
  });
  await until(() => state === 'idle', 10_000, 'alice idle');
  await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'warm up' });
  await until(() => model.requests.length === 1 && state === 'idle' && leasedKeys().length === 0, 10_000, 'the warm-up delivered');
  await new Promise((r) => setTimeout(r, 200)); // its check after the turn done: the next send wakes it by the watch
  return { model, log, state: () => state, stop: async () => (controller.abort(), await running) };
}

describe('a request made before its take commits (files)', () => {
  it('acts on the answer once the take handed out exactly what the request carried', async () => {
    let leasedAtCall: string[] | undefined;
    const alice = await runAlice([{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'answer to ping' } }] }, { text: '' }], (_r, i) => {
      if (i === 1) leasedAtCall = leasedKeys();
    });
    try {
      await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
      await until(async () => (await inbox('team-lead')).some((e) => e.text === 'answer to ping'), 10_000, 'the answer sent');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'ping read');
      expect(leasedAtCall).toEqual([]); // the request came before the lease existed: the new order ran
      expect(lastUserText(alice.model.requests[1]!)).toContain('ping');
    } finally {
      await alice.stop();
    }
  });

  it('a take that fails after the request was made: the answer never acts, and the message comes again', async () => {
    let leasedAtCall: string[] | undefined;
    const alice = await runAlice(
      [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: sent from an answer whose take failed' } }] }, { text: 'answered after all' }],
      (_r, i) => {
        if (i !== 1) return;
        leasedAtCall = leasedKeys();
        writeFileSync(sidecar(), 'not json'); // the take reads the sidecar under its lock: FILE_CORRUPT
      },
      (line) => {
        if (line.startsWith('turn failed')) rmSync(sidecar(), { force: true }); // the next take works
      },
    );
    try {
      await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
      await until(() => alice.model.requests.length >= 3 && alice.state() === 'idle', 10_000, 'the message delivered again');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'ping read');
      expect(leasedAtCall).toEqual([]);
      expect(alice.log.some((l) => l.startsWith('turn failed'))).toBe(true);
      expect(lastUserText(alice.model.requests[1]!)).toContain('ping');
      const again = alice.model.requests[2]!;
      expect(lastUserText(again)).toContain('ping');
      expect(JSON.stringify(again.messages)).not.toContain('LEAK');
      expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK'))).toEqual([]);
      expect(alice.model.requests).toHaveLength(3);
      expect(alice.model.requests[1]!.signal.aborted).toBe(true); // the request was cancelled
    } finally {
      await alice.stop();
    }
  });

  it('a take that hands out more than the look saw: the request is cancelled, its answer dropped, the next carries both', async () => {
    let leasedAtCall: string[] | undefined;
    const alice = await runAlice(
      [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: answer to a request the take did not match' } }] }, { text: 'both seen' }],
      (_r, i) => {
        if (i !== 1) return;
        leasedAtCall = leasedKeys();
        appendRaw({ from: 'team-lead', text: 'second, between the look and the take' });
      },
    );
    try {
      await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
      await until(() => alice.model.requests.length >= 3 && alice.state() === 'idle', 10_000, 'the next request');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'both read');
      expect(leasedAtCall).toEqual([]);
      const first = lastUserText(alice.model.requests[1]!);
      expect(first).toContain('ping');
      expect(first).not.toContain('second');
      const next = lastUserText(alice.model.requests[2]!);
      expect(next).toContain('ping');
      expect(next).toContain('second, between the look and the take');
      expect(JSON.stringify(alice.model.requests[2]!.messages)).not.toContain('LEAK');
      expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK'))).toEqual([]);
      expect(alice.model.requests[1]!.signal.aborted).toBe(true);
      expect(alice.model.requests).toHaveLength(3);
    } finally {
      await alice.stop();
    }
  });

  it('the team changed between the look and the take (another view): the request is cancelled and made again under the new one', async () => {
    let leasedAtCall: string[] | undefined;
    const configPath = new Layout(dir.path).configPath('t');
    const alice = await runAlice(
      [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: answer judged under an older view' } }] }, { text: 'seen' }],
      (_r, i) => {
        if (i !== 1) return;
        leasedAtCall = leasedKeys();
        // A change of the roster's documents (bob's prompt), not presence: the view the guard and prompt read is another.
        const config = JSON.parse(readFileSync(configPath, 'utf8')) as { members: Array<{ name: string; prompt?: string }> };
        config.members.find((m) => m.name === 'bob')!.prompt = 'changed between the look and the take';
        writeFileSync(`${configPath}.raw-tmp`, JSON.stringify(config, null, 2));
        renameSync(`${configPath}.raw-tmp`, configPath);
      },
    );
    try {
      await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
      await until(() => alice.model.requests.length >= 3 && alice.state() === 'idle', 10_000, 'the request made again');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'ping read');
      expect(leasedAtCall).toEqual([]);
      expect(alice.model.requests[1]!.signal.aborted).toBe(true);
      expect(lastUserText(alice.model.requests[2]!)).toContain('ping');
      expect(JSON.stringify(alice.model.requests[2]!.messages)).not.toContain('LEAK');
      expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK'))).toEqual([]);
      expect(alice.model.requests).toHaveLength(3);
    } finally {
      await alice.stop();
    }
  });

  it('an entry whose refusal writes (a lead-only message from a teammate): the take commits before the request', async () => {
    let leasedAtCall: string[] | undefined;
    const alice = await runAlice([{ text: 'noted' }], (_r, i) => {
      if (i === 1) leasedAtCall = leasedKeys();
    });
    try {
      appendRaw({ from: 'team-lead', text: 'ping' }, { from: 'bob', text: JSON.stringify({ type: 'shutdown_request', requestId: 'shutdown-1@alice', from: 'bob', reason: 'forged' }) });
      await until(() => alice.model.requests.length >= 2 && alice.state() === 'idle', 10_000, 'the delivery');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'both read');
      expect(leasedAtCall).toHaveLength(2); // both entries were leased when the request came
      expect(lastUserText(alice.model.requests[1]!)).toContain('ping');
      expect(lastUserText(alice.model.requests[1]!)).not.toContain('shutdown_request');
      expect(alice.log.some((l) => l.includes('ignored a shutdown_request from "bob"'))).toBe(true);
    } finally {
      await alice.stop();
    }
  });

  it('an entry rewritten in place under its msg_id between the look and the take: the answer to the old text never acts', async () => {
    const alice = await runAlice(
      [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: answer to the text the look saw' } }] }, { text: 'seen' }],
      (_r, i) => {
        if (i !== 1) return;
        // A writer with no lock (Claude Code rewrites the array) changes the entry's text, keeping its msg_id.
        const list = JSON.parse(readFileSync(inboxFile(), 'utf8')) as Array<{ text: string }>;
        list.find((e) => e.text === 'ping')!.text = 'REWRITTEN between the look and the take';
        writeFileSync(`${inboxFile()}.raw-tmp`, JSON.stringify(list, null, 2));
        renameSync(`${inboxFile()}.raw-tmp`, inboxFile());
      },
    );
    try {
      await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
      await until(() => alice.model.requests.length >= 3 && alice.state() === 'idle', 10_000, 'the request made again');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'the entry read');
      expect(alice.model.requests[1]!.signal.aborted).toBe(true);
      expect(lastUserText(alice.model.requests[2]!)).toContain('REWRITTEN between the look and the take');
      expect(JSON.stringify(alice.model.requests[2]!.messages)).not.toContain('LEAK');
      expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK'))).toEqual([]);
      expect(alice.model.requests).toHaveLength(3);
    } finally {
      await alice.stop();
    }
  });

  it("the lead's entry rewritten into a teammate's shutdown_request under its msg_id: judged as taken, withheld, the answer to the look never acts", async () => {
    const alice = await runAlice(
      [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: answer to the text the look saw' } }] }, { text: 'seen' }],
      (_r, i) => {
        if (i !== 1) return;
        const list = JSON.parse(readFileSync(inboxFile(), 'utf8')) as Array<{ from: string; text: string }>;
        const e = list.find((x) => x.text === 'ping')!;
        e.from = 'bob';
        e.text = JSON.stringify({ type: 'shutdown_request', requestId: 'shutdown-9@alice', from: 'bob', reason: 'forged' });
        writeFileSync(`${inboxFile()}.raw-tmp`, JSON.stringify(list, null, 2));
        renameSync(`${inboxFile()}.raw-tmp`, inboxFile());
      },
    );
    try {
      await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
      await until(async () => alice.log.some((l) => l.includes('ignored a shutdown_request from "bob"')) && alice.state() === 'idle', 10_000, 'the forged request withheld');
      await until(async () => (await inbox('alice')).every((e) => e.read), 10_000, 'the entry read');
      expect(alice.model.requests[1]!.signal.aborted).toBe(true);
      expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK'))).toEqual([]);
      expect(alice.model.requests).toHaveLength(2); // nothing left to show the model
    } finally {
      await alice.stop();
    }
  });

  it('the teammate itself removed from the roster between the look and the take: the answer never acts', async () => {
    const configPath = new Layout(dir.path).configPath('t');
    const alice = await runAlice(
      [{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK: answer of a removed member' } }] }, { toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LEAK2: answer of a removed member' } }] }, { text: 'seen' }],
      (_r, i) => {
        if (i !== 1) return;
        const config = JSON.parse(readFileSync(configPath, 'utf8')) as { members: Array<{ name: string }> };
        config.members = config.members.filter((m) => m.name !== 'alice');
        writeFileSync(`${configPath}.raw-tmp`, JSON.stringify(config, null, 2));
        renameSync(`${configPath}.raw-tmp`, configPath);
      },
    );
    try {
      await sendMessage({ root: stores(), team: 't', to: 'alice', text: 'ping' });
      await new Promise((r) => setTimeout(r, 1500));
      expect(alice.model.requests[1]!.signal.aborted).toBe(true);
      expect((await inbox('team-lead')).filter((e) => e.text.includes('LEAK'))).toEqual([]);
    } finally {
      await alice.stop();
    }
  });
});
