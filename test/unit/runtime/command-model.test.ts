/**
 * The `command` model with a real external program (a small node script): it gets the rendered
 * turn (team context + wrapped messages) on stdin, and its stdout is sent to the sender.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInbox } from '../../../src/core/messages/inbox-read.js';
import { sendMessage } from '../../../src/core/messages/send.js';
import { spawnMember } from '../../../src/core/members/spawn.js';
import { parseMessageText } from '../../../src/protocol/structured.js';
import { createModel } from '../../../src/runtime/models/index.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';
import { openFsStores } from '../../../src/store/open.js';

const PROGRAM = fileURLToPath(new URL('../../helpers/model-program.mjs', import.meta.url));
let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['bob']);
  await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice', cwd: dir.path });
});
afterEach(() => dir.cleanup());

const inbox = async (agent: string) => (await readInbox({ root: openFsStores(dir.path), team: 't', agent })).messages.map((m) => m.entry);

async function runUntilIdle(mode: string) {
  const model = await createModel(`command:node ${PROGRAM} ${mode} ${dir.path}`);
  const controller = new AbortController();
  const running = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: controller.signal });
  const idle = await until(async () => (await inbox('team-lead')).find((e) => parseMessageText(e.text).kind === 'structured'), 15_000, 'idle notification');
  controller.abort();
  await running;
  return JSON.parse(idle.text) as Record<string, unknown>;
}

describe('command model', () => {
  it('pipes the rendered turn to the program and sends its stdout to the sender', async () => {
    await sendMessage({ root: openFsStores(dir.path), team: 't', from: 'bob', to: 'alice', text: 'Review src/parse.ts please', summary: 'review request' });
    const idle = await runUntilIdle('record');
    const stdin = await readFile(join(dir.path, 'request-1.txt'), 'utf8');
    expect(stdin).toContain('You are "alice"');
    expect(stdin).toContain('## Team roster');
    expect(stdin).toContain('<teammate-message teammate_id="bob" color="blue" summary="review request">\nReview src/parse.ts please\n</teammate-message>');
    const reply = (await inbox('bob')).find((e) => e.from === 'alice');
    expect(reply?.text).toBe('ack 1');
    expect(idle).toMatchObject({ from: 'alice', idleReason: 'available', summary: '[to bob] ack 1' });
  });

  it('reports a failing program as a failed turn, naming the exit code and stderr', async () => {
    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'hello' });
    const idle = await runUntilIdle('fail');
    expect(idle.idleReason).toBe('failed');
    expect(String(idle.failureReason)).toMatch(/exited with code 3\. boom/);
  });
});
