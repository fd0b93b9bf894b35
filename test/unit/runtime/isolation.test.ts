/**
 * Several teammates under Promise.all: currentTeammate() answers for the right teammate at every
 * await of each call stack, and each teammate's messages carry its own name.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { currentTeammate } from '../../../src/runtime/context.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { functionModel, until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { openFsStores } from '../../../src/store/open.js';

let dir: TempDir;
beforeEach(async () => (dir = await makeTempDir()));
afterEach(() => dir.cleanup());

const NAMES = ['ann', 'ben', 'cat', 'dan'];

describe('AsyncLocalStorage isolation', () => {
  it('keeps each teammate’s identity through interleaved awaits', async () => {
    await makeTeam(dir.path, 't', NAMES);
    const seen: Array<{ model: string; ctx: string | undefined }> = [];
    const controller = new AbortController();
    const modelFor = (name: string, pauseMs: number) =>
      functionModel(async (_request, index) => {
        for (let i = 0; i < 3; i++) {
          await new Promise((r) => setTimeout(r, pauseMs));
          seen.push({ model: name, ctx: currentTeammate()?.name });
        }
        return index === 0
          ? { content: [{ type: 'tool_use', id: `t-${name}`, name: 'SendMessage', input: { to: 'team-lead', message: `I am ${currentTeammate()?.name}` } }], stopReason: 'tool_use' }
          : { content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn' };
      });
    for (const name of NAMES) await sendMessage({ root: openFsStores(dir.path), team: 't', to: name, text: 'who are you?' });
    const runs = Promise.all(NAMES.map((name, i) => runTeammate({ root: openFsStores(dir.path), team: 't', name, model: modelFor(name, 3 + i * 2), signal: controller.signal })));
    const lead = async () => (await readInbox({ root: openFsStores(dir.path), team: 't' })).messages.map((m) => m.entry);
    const replies = await until(async () => {
      const texts = (await lead()).filter((e) => e.text.startsWith('I am '));
      return texts.length === NAMES.length ? texts : undefined;
    }, 10_000, 'four replies');
    controller.abort();
    const exits = await runs;

    expect(currentTeammate()).toBeUndefined();
    expect(seen.length).toBeGreaterThanOrEqual(NAMES.length * 3);
    for (const s of seen) expect(s.ctx).toBe(s.model);
    for (const r of replies) expect(r.text).toBe(`I am ${r.from}`);
    expect(replies.map((r) => r.from).sort()).toEqual(NAMES);
    expect(exits.map((e) => e.reason)).toEqual(NAMES.map(() => 'aborted'));
  });
});
