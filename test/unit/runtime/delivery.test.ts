/**
 * Delivery between model calls: a message sent while a teammate is inside a multi-step tool loop
 * reaches the next model request of the same turn, and is marked read only after that request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../../src/core/messages/send.js';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { parseMessageText } from '../../../src/protocol/structured.js';
import { createScriptedModel } from '../../../src/runtime/models/scripted.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { lastUserText, until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { openFsStores } from '../../../src/store/open.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
});
afterEach(() => dir.cleanup());

const inbox = async (agent: string) => (await readInbox({ root: openFsStores(dir.path), team: 't', agent })).messages.map((m) => m.entry);

describe('delivery inside a multi-step tool loop', () => {
  it('puts a message that arrived during a model call into the next request of the same turn', async () => {
    let unreadDuringCall1: boolean | undefined;
    const model = createScriptedModel({
      turns: [
        { toolCalls: [{ name: 'TaskList', input: {} }] },
        { toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'got your news' } }] },
        { text: 'done' },
      ],
      onCall: async (_request, index) => {
        if (index === 0) await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'mid-loop news', summary: 'news' });
        if (index === 1) unreadDuringCall1 = (await inbox('alice')).find((e) => e.text === 'mid-loop news')?.read === false;
      },
    });
    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'start' });
    const controller = new AbortController();
    const running = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: controller.signal, takesTasks: false });
    const idle = await until(async () => (await inbox('team-lead')).find((e) => parseMessageText(e.text).kind === 'structured'), 10_000, 'idle notification');
    controller.abort();
    expect((await running).reason).toBe('aborted');

    const [first, second, third] = model.requests;
    expect(lastUserText(first!)).toBe('<teammate-message teammate_id="team-lead">\nstart\n</teammate-message>');
    expect(JSON.stringify(first!.messages)).not.toContain('mid-loop news');
    const secondTurn = second!.messages[second!.messages.length - 1]!;
    expect(secondTurn.role).toBe('user');
    expect(secondTurn.content[0]).toMatchObject({ type: 'tool_result' });
    expect(lastUserText(second!)).toBe('<teammate-message teammate_id="team-lead" summary="news">\nmid-loop news\n</teammate-message>');
    expect(model.requests).toHaveLength(3);
    expect(third!.messages).toHaveLength(5);
    expect(unreadDuringCall1).toBe(true);
    expect((await inbox('alice')).every((e) => e.read === true)).toBe(true);
    expect(JSON.parse(idle.text)).toMatchObject({ type: 'idle_notification', from: 'alice', idleReason: 'available', summary: '[to team-lead] got your news' });
  });

  it('rebuilds the system prompt with the roster and task board before each call', async () => {
    const model = createScriptedModel({ turns: [{ toolCalls: [{ name: 'TaskCreate', input: { subject: 'Write the parser' } }] }, { text: 'ok' }] });
    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'plan it' });
    const controller = new AbortController();
    const running = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: controller.signal });
    await until(() => model.requests.length >= 2, 10_000, 'second request');
    controller.abort();
    await running;
    expect(model.requests[0]!.system).toContain('You are "alice"');
    expect(model.requests[0]!.system).toContain('- team-lead (lead');
    expect(model.requests[0]!.system).toContain('(no tasks)');
    expect(model.requests[1]!.system).toContain('#1 [pending] Write the parser');
  });
});
