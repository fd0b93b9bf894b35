/**
 * Transcripts: a member's conversation kept through the HostStore and restored when its runtime
 * starts again (a restart, `team resume`), bounded in size, and never handed to a later member of
 * the same name.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sendMessage } from '../../../src/core/messages/send.js';
import type { ModelRequest } from '../../../src/runtime/models/types.js';
import { runTeammate } from '../../../src/runtime/teammate.js';
import { loadTurns } from '../../../src/runtime/transcript.js';
import { openFsStores } from '../../../src/store/open.js';
import { functionModel, until } from '../../helpers/runtime.js';
import { makeTeam } from '../../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../../helpers/temp-dir.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't', ['alice']);
});
afterEach(async () => {
  await dir.cleanup();
});

const texts = (request: ModelRequest) => request.messages.map((m) => `${m.role}: ${m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(' ')}`);

async function runOnce(reply: string, message: string, transcript = true): Promise<ModelRequest> {
  const model = functionModel(() => ({ content: [{ type: 'text', text: reply }], stopReason: 'end_turn' }));
  const stop = new AbortController();
  const done = runTeammate({ root: openFsStores(dir.path), team: 't', name: 'alice', model, signal: stop.signal, takesTasks: false, transcript, pollMs: 200, reportUnsentText: false });
  await sendMessage({ root: openFsStores(dir.path), team: 't', from: 'team-lead', to: 'alice', text: message });
  const request = await until(() => model.requests[0], 10_000, 'the model call');
  // The turn is saved as it ends: wait for its reply in the transcript before stopping.
  const store = openFsStores(dir.path);
  await until(async () => (await store.host.readTranscript('t', 'alice')).includes(reply) || !transcript, 10_000, 'the transcript');
  stop.abort();
  await done;
  return request;
}

it('a restarted member sees its earlier conversation, then the new message', async () => {
  const first = await runOnce('Noted: the codeword is PLUM.', 'Remember the codeword PLUM.');
  expect(first.messages).toHaveLength(1);
  const second = await runOnce('It was PLUM.', 'What was the codeword?');
  const seen = texts(second);
  expect(seen).toHaveLength(3);
  expect(seen[0]).toMatch(/^user: .*Remember the codeword PLUM\./s);
  expect(seen[1]).toBe('assistant: Noted: the codeword is PLUM.');
  expect(seen[2]).toMatch(/^user: .*What was the codeword\?/s);
  const lines = (await readFile(join(dir.path, 'mailroom', 'transcripts', 't', 'alice.ndjson'), 'utf8')).trim().split('\n');
  expect(lines.map((l) => (JSON.parse(l) as { message: { role: string } }).message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
});

it('without the option nothing is kept or restored', async () => {
  await runOnce('one', 'first', false);
  const second = await runOnce('two', 'second', false);
  expect(second.messages).toHaveLength(1);
  expect(await openFsStores(dir.path).host.readTranscript('t', 'alice')).toBe('');
});

it('a later member of the same name (another joinedAt) does not get the transcript', async () => {
  await runOnce('Noted.', 'Remember PLUM.');
  const host = openFsStores(dir.path).host;
  const joinedAt = (await openFsStores(dir.path).team.readConfig('t')).members.find((m) => m.name === 'alice')?.joinedAt;
  expect(await loadTurns({ host, team: 't', name: 'alice', joinedAt })).toHaveLength(2);
  expect(await loadTurns({ host, team: 't', name: 'alice', joinedAt: (joinedAt ?? 0) + 1 })).toEqual([]);
});

it('is bounded: past maxBytes only the newest whole lines are kept, and what is left still restores', async () => {
  const host = openFsStores(dir.path).host;
  const turn = (i: number) => JSON.stringify({ at: i, joinedAt: 5, message: { role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text: `turn ${i} ${'x'.repeat(80)}` }] } });
  for (let i = 0; i < 200; i++) await host.appendTranscript('t', 'alice', [turn(i)], 4096);
  const path = join(dir.path, 'mailroom', 'transcripts', 't', 'alice.ndjson');
  expect((await stat(path)).size).toBeLessThanOrEqual(4096);
  const lines = (await readFile(path, 'utf8')).trim().split('\n');
  expect(lines.at(-1)).toBe(turn(199));
  for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
  const turns = await loadTurns({ host, team: 't', name: 'alice', joinedAt: 5 });
  expect(turns[0]?.role).toBe('user');
  expect(turns.at(-1)?.role).toBe('assistant');
  expect(turns.length).toBeGreaterThan(10);
});
