/**
 * No lost report (#82687) and no idle flood (#51557): a turn that ends with text but messages
 * nobody sends that text to the lead, marked `auto_sent` (as the reply to the lead's open ask, if
 * any); a turn that messaged the lead sends nothing extra; an idle_notification that says nothing
 * new is skipped unless `idleNotifications: 'every-turn'`. Real files, scripted model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ask } from '../../../src/core/messages/ask.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { createScriptedModel, type ScriptedTurn } from '../../../src/runtime/models/scripted.js';
import { runTeammate, type TeammateOptions } from '../../../src/runtime/teammate.js';
import { openFsStores } from '../../../src/store/open.js';
import { until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
let stop: (() => Promise<unknown>) | undefined;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
});
afterEach(async () => {
  await stop?.();
  stop = undefined;
  await dir.cleanup();
});

function start(turns: ScriptedTurn[], options: Partial<TeammateOptions> = {}): void {
  const controller = new AbortController();
  const running = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model: createScriptedModel({ turns }), signal: controller.signal, takesTasks: false, ...options });
  stop = () => (controller.abort(), running);
}

const leadInbox = () => openFsStores(dir.path).team.readInbox('t', 'team-lead');
const idles = async () => (await leadInbox()).filter((e) => e.text.includes('"idle_notification"'));

describe('no lost report', () => {
  it('sends the text of a turn that messaged nobody to the lead, marked auto_sent, before its idle notification', async () => {
    start([{ text: 'The parser is done: 14 tests pass.' }]);
    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'write the parser' });
    await until(async () => (await idles()).length === 1, 10_000, 'the idle notification');
    const inbox = await leadInbox();
    expect(inbox.map((e) => (e.text.includes('idle_notification') ? 'idle' : e.text))).toEqual(['The parser is done: 14 tests pass.', 'idle']);
    expect(inbox[0]).toMatchObject({ from: 'alice', auto_sent: 'turn-text', summary: 'report (sent by mailroom: the turn ended without a message)' });
  });

  it('sends nothing extra when the turn messaged the lead', async () => {
    start([{ text: 'Sending it.', toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'done' } }] }, { text: 'All reported.' }]);
    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'go' });
    await until(async () => (await idles()).length === 1, 10_000, 'the idle notification');
    expect((await leadInbox()).filter((e) => !e.text.includes('idle_notification')).map((e) => e.text)).toEqual(['done']);
  });

  it('answers the lead\'s ask with the turn\'s text when the model only printed it', async () => {
    start([{ text: 'Forty-two.' }]);
    await until(async () => (await openFsStores(dir.path).team.readClaims('t')).some((c) => c.member === 'alice'), 10_000, 'alice to start');
    const answer = await ask({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'What is six times seven?', timeoutMs: 10_000 });
    expect(answer.reply).toMatchObject({ from: 'alice', text: 'Forty-two.', auto_sent: 'turn-text', in_reply_to: answer.ask.entry.msg_id });
  });
});

describe('idle notifications', () => {
  it.each([
    ['changes', 1],
    ['every-turn', 2],
  ] as const)('idleNotifications %s: two turns that end alike send %i', async (mode, expected) => {
    const lines: string[] = [];
    start([{ toolCalls: [{ name: 'TaskList', input: {} }] }, {}, { toolCalls: [{ name: 'TaskList', input: {} }] }, {}], { idleNotifications: mode, log: (line) => lines.push(line) });
    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'first' });
    await until(async () => (await idles()).length === 1, 10_000, 'the first idle notification');
    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'second' });
    // The second turn's end: a second notification, or the line saying it was skipped.
    await until(async () => (await idles()).length === 2 || lines.some((l) => l.includes('no idle_notification')), 10_000, 'the end of the second turn');
    expect(await idles()).toHaveLength(expected);
  });
});
