/**
 * A teammate's idle notification carries `result`, the turn's final reply text, as Claude Code
 * 2.1.332 writes it (reference §4: `result?`, at most 4000 characters), after the other fields.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { parseMessageText } from '../../../src/protocol/structured.js';
import { IDLE_RESULT_MAX, idleFields } from '../../../src/runtime/lifecycle/idle.js';
import { createScriptedModel } from '../../../src/runtime/models/scripted.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { openFsStores } from '../../../src/store/open.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
});
afterEach(() => dir.cleanup());

describe('idle_notification.result', () => {
  it("is the turn's last reply text, written after the other fields", async () => {
    const model = createScriptedModel({
      turns: [{ text: 'Looking at it.', toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'on it', summary: 'on it' } }] }, { text: 'The parser is done: 14 tests pass.' }],
    });
    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'write the parser' });
    const controller = new AbortController();
    const running = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: controller.signal, takesTasks: false });
    const idle = await until(
      async () => (await readInbox({ root: openFsStores(dir.path), team: 't' })).messages.find((m) => m.parsed.kind === 'structured' && m.parsed.message.type === 'idle_notification'),
      10_000,
      'idle notification',
    );
    controller.abort();
    await running;
    const message = JSON.parse(idle.entry.text) as Record<string, unknown>;
    expect(Object.keys(message)).toEqual(['type', 'from', 'timestamp', 'idleReason', 'summary', 'result']);
    expect(message).toMatchObject({ idleReason: 'available', summary: '[to team-lead] on it', result: 'The parser is done: 14 tests pass.' });
    expect(parseMessageText(idle.entry.text).kind).toBe('structured');
  });

  it(`is capped at ${IDLE_RESULT_MAX} characters and left out when the turn said nothing`, () => {
    const long = idleFields({ record: { lastText: 'x'.repeat(IDLE_RESULT_MAX + 10) }, steps: 1 });
    expect(long.result).toHaveLength(IDLE_RESULT_MAX);
    expect(long.result!.endsWith('…')).toBe(true);
    expect(idleFields({ record: {}, steps: 1 })).toEqual({ idleReason: 'available' });
  });
});
