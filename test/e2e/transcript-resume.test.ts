/**
 * Transcripts through the real binary: a process member (`mailroom agent`, scripted model) keeps
 * its conversation in `mailroom/transcripts/<team>/<member>.ndjson`; killed with SIGKILL and
 * brought back by `mailroom team resume`, it restores the earlier turns and carries on after them.
 * (What the model sees after a restart: test/unit/runtime/transcript.test.ts.)
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sendMessage } from '../../src/core/messages/send.js';
import { openFsStores } from '../../src/store/open.js';
import { isAlive } from '../../src/runtime/process/kill.js';
import { spawnProcessTeammate } from '../../src/runtime/process/spawn.js';
import { runCli } from '../helpers/cli.js';
import { until } from '../helpers/runtime.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const pids: number[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  await makeTeam(dir.path, 't');
});
afterEach(async () => {
  for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

type Line = { joinedAt: number | null; message: { role: string; content: { type: string; text?: string }[] } };
const lineText = (l: Line) => l.message.content.flatMap((b) => (b.text !== undefined ? [b.text] : [])).join(' ');

it('a killed agent resumed by team resume restores its transcript and appends after it', async () => {
  const script = join(dir.path, 'notes.yaml');
  await writeFile(script, '- text: Noted, the codeword is PLUM.\n- text: Still PLUM.\n');
  const store = openFsStores(dir.path);
  const lines = async () => (await store.host.readTranscript('t', 'bob')).trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Line);
  const { process: first } = await spawnProcessTeammate({ root: openFsStores(dir.path), team: 't', name: 'bob', model: `scripted:${script}`, cwd: dir.path, prompt: 'Remember the codeword PLUM.' });
  pids.push(first.pid);
  await until(async () => (await lines()).length === 2, 15_000, 'the first turn in the transcript');
  const [asked, answered] = await lines();
  expect(lineText(asked!)).toContain('Remember the codeword PLUM.');
  expect(lineText(answered!)).toBe('Noted, the codeword is PLUM.');

  process.kill(first.pid, 'SIGKILL');
  await until(() => !isAlive(first.pid), 5_000, 'bob to die');
  const run = await runCli(['team', 'resume', 't', '--root', dir.path, '--json']);
  expect(run.code, run.stderr).toBe(0);
  const [resumed] = JSON.parse(run.stdout) as { name: string; outcome: string; pid: number }[];
  expect(resumed).toMatchObject({ name: 'bob', outcome: 'restarted' });
  pids.push(resumed!.pid);
  await until(async () => (await store.host.readAgentLog('t', 'bob')).includes('restored 2 turns of the earlier conversation'), 15_000, 'the restore in the log');

  await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'bob', text: 'What was the codeword?' });
  await until(async () => (await lines()).length === 4, 15_000, 'the second turn in the transcript');
  const all = await lines();
  expect(all.map((l) => l.message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  expect(lineText(all[2]!)).toContain('What was the codeword?');
  const joinedAt = (await store.team.readConfig('t')).members.find((m) => m.name === 'bob')?.joinedAt;
  expect(all.every((l) => l.joinedAt === joinedAt)).toBe(true);
});
