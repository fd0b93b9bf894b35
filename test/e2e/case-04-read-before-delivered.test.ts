/**
 * ../shared/cases/04: a teammate process is busy in a long model call when a message arrives; it
 * notices the message and is killed with SIGKILL before the message went into a model request.
 * Restarted, the message is still unread on disk and is injected into its first model request.
 * Then `mailroom team stop` shuts it down through the handshake. Real processes throughout.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage } from '../../src/core/messages/send.js';
import { spawnMember } from '../../src/core/members/spawn.js';
import { showTeam } from '../../src/core/teams/team-lifecycle.js';
import type { Stores } from '../../src/store/selection.js';
import { Layout } from '../../src/store/fs/paths.js';
import { openFsStores } from '../../src/store/open.js';
import { isAlive } from '../../src/runtime/process/kill.js';
import { startProcessTeammate } from '../../src/runtime/process/start.js';
import { runCli } from '../helpers/cli.js';
import { until } from '../helpers/runtime.js';
import { makeTeam } from '../helpers/team-setup.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const PROGRAM = fileURLToPath(new URL('../helpers/model-program.mjs', import.meta.url));
let dir: TempDir;
let store: Stores;
const pids: number[] = [];
beforeEach(async () => {
  dir = await makeTempDir();
  store = openFsStores(dir.path);
  await makeTeam(dir.path, 't');
});
afterEach(async () => {
  for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await dir.cleanup();
});

const model = (mode: string) => `command:node ${PROGRAM} ${mode} ${dir.path}`;
const aliceInbox = () => store.team.readInbox('t', 'alice');
const log = async () => readFile(new Layout(dir.path).agentLogPath('t', 'alice'), 'utf8').catch(() => '');

describe('case 04: a message is never marked read before it is in a model request', () => {
  it('survives SIGKILL between noticing and delivering, and reaches the restarted teammate’s first request', async () => {
    await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice', model: model('slow'), cwd: dir.path, prompt: 'Start on the parser.' });
    const first = await startProcessTeammate({ root: store, team: 't', name: 'alice' });
    pids.push(first.pid);
    const slowPid = Number(await until(() => (existsSync(join(dir.path, 'slow-started')) ? readFile(join(dir.path, 'slow-started'), 'utf8') : undefined), 15_000, 'the slow model call'));
    pids.push(slowPid);

    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'Switch to plan B.' });
    await until(async () => (await log()).includes('noticed 1 unread message while busy'), 10_000, 'the teammate to notice the message').catch(async (e) => { console.log(await log()); throw e; });
    process.kill(first.pid, 'SIGKILL');
    await until(() => !isAlive(first.pid), 5_000, 'the teammate to die');

    const afterKill = await aliceInbox();
    expect(afterKill.map((e) => [e.text, e.read])).toEqual([
      ['Start on the parser.', false],
      ['Switch to plan B.', false],
    ]);

    const second = await startProcessTeammate({ root: store, team: 't', name: 'alice', model: model('record') });
    pids.push(second.pid);
    const request = await until(() => readFile(join(dir.path, 'request-1.txt'), 'utf8').catch(() => undefined), 15_000, 'the first model request');
    expect(request).toContain(
      '<teammate-message teammate_id="team-lead">\nStart on the parser.\n</teammate-message>\n\n<teammate-message teammate_id="team-lead">\nSwitch to plan B.\n</teammate-message>',
    );
    await until(async () => (await aliceInbox()).every((e) => e.read === true), 10_000, 'the messages to be marked read');
    expect((await readdir(dir.path)).filter((f) => f.startsWith('request-'))).toEqual(['request-1.txt']);

    const stop = await runCli(['team', 'stop', 'alice', '--root', dir.path, '--team', 't', '--json']);
    expect(stop.stderr).toBe('');
    expect(stop.code).toBe(0);
    expect(JSON.parse(stop.stdout)).toMatchObject({ name: 'alice', outcome: 'approved' });
    await until(() => !isAlive(second.pid), 5_000, 'the process to exit');
    expect(await store.host.readProcessRecord('t', 'alice')).toBeUndefined();
    expect((await store.team.readConfig('t')).members.map((m) => m.name)).toEqual(['team-lead']);
    expect(await log()).toMatch(/stopped: shutdown/);
  });

  // Issue 24 moved what a woken idle teammate does between its take and its model request (the take
  // by prefetch on the inbox's change, `working` presence after the request, synchronous lock calls):
  // killed with SIGKILL once the request is out, the message it took is still unread on disk — handed
  // out, not read — and reaches the restarted teammate's first request.
  it('an idle teammate woken by a send, killed after its take and request, loses nothing', async () => {
    await spawnMember({ root: openFsStores(dir.path), team: 't', name: 'alice', model: model('slow'), cwd: dir.path });
    const first = await startProcessTeammate({ root: store, team: 't', name: 'alice' });
    pids.push(first.pid);
    await until(async () => (await showTeam({ root: openFsStores(dir.path), team: 't' })).members.find((m) => m.name === 'alice')?.presence.state === 'idle', 15_000, 'the teammate idle');
    await sendMessage({ root: openFsStores(dir.path), team: 't', to: 'alice', text: 'Woken by this.' });
    const slowPid = Number(await until(() => (existsSync(join(dir.path, 'slow-started')) ? readFile(join(dir.path, 'slow-started'), 'utf8') : undefined), 15_000, 'the model request'));
    pids.push(slowPid);
    const leases = JSON.parse(await readFile(new Layout(dir.path).leasePath('t', 'alice'), 'utf8')) as { leases: { keys: string[] }[] };
    expect(leases.leases).toHaveLength(1); // handed out (a lease) before the request was made
    process.kill(first.pid, 'SIGKILL');
    await until(() => !isAlive(first.pid), 5_000, 'the teammate to die');
    expect((await aliceInbox()).map((e) => [e.text, e.read])).toEqual([['Woken by this.', false]]);

    const second = await startProcessTeammate({ root: store, team: 't', name: 'alice', model: model('record') });
    pids.push(second.pid);
    const request = await until(() => readFile(join(dir.path, 'request-1.txt'), 'utf8').catch(() => undefined), 15_000, 'the first model request');
    expect(request).toContain('<teammate-message teammate_id="team-lead">\nWoken by this.\n</teammate-message>');
    await until(async () => (await aliceInbox()).every((e) => e.read === true), 10_000, 'the message to be marked read');
    process.kill(second.pid, 'SIGKILL');
  });
});
