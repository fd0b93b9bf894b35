/**
 * `--to-capability` through the real binary: `team send` picks the least-loaded live member that
 * declares the capability (idle before working, then fewest unread, then fewest tasks in progress),
 * never a stopped or dead one; `team ask` is answered by the process teammate it picked; with no
 * live capable member it fails with NO_CAPABLE_MEMBER.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendMessage, spawnMember } from '../../src/index.js';
import { openFsStores } from '../../src/store/open.js';
import type { ReaderClaim } from '../../src/store/team-store.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const cli = (...args: string[]) => runCli(['--root', dir.path, '--team', 'demo', ...args]);

beforeEach(async () => {
  dir = await makeTempDir('mailroom-route-');
  expect((await runCli(['--root', dir.path, 'team', 'create', 'demo'])).code).toBe(0);
});
afterEach(async () => {
  await cli('team', 'stop', 'rita', '--force');
  await dir.cleanup();
});

/** Makes `name` live (a runtime holding its reader claim, beating now) in `state`. */
async function live(name: string, state: ReaderClaim['state'] = 'idle'): Promise<void> {
  const store = openFsStores(dir.path).team;
  const { value } = await store.claimReader('demo', name, { kind: 'agent', host: 'test-host', pid: 10_000 + name.length, startedAt: Date.now() });
  if (state !== 'idle') await store.beat('demo', name, value.token, state);
}

interface Routed { to: string; route: { capability: string; candidates: { name: string; presence: string; unread: number }[] } }

describe('--to-capability', () => {
  it('team send picks the live capable member with less load, and skips stopped ones', async () => {
    for (const name of ['rita', 'dan', 'sam']) await spawnMember({ root: openFsStores(dir.path), team: 'demo', name, capabilities: ['review'] });
    await spawnMember({ root: openFsStores(dir.path), team: 'demo', name: 'otto', capabilities: ['ops'] });
    await live('rita');
    await live('dan');
    await live('otto');
    for (const text of ['one', 'two']) await sendMessage({ root: openFsStores(dir.path), team: 'demo', to: 'rita', text });
    const first = await cli('team', 'send', '--to-capability', 'review', 'Please review PR 12', '--json');
    expect(first.code, first.stderr).toBe(0);
    const out = JSON.parse(first.stdout) as Routed;
    expect(out.to).toBe('dan');
    expect(out.route.candidates).toEqual([
      { name: 'dan', presence: 'idle', unread: 0, inProgress: 0 },
      { name: 'rita', presence: 'idle', unread: 2, inProgress: 0 },
      { name: 'sam', presence: 'stopped', unread: 0, inProgress: 0 },
    ]);
    expect((await openFsStores(dir.path).team.readInbox('demo', 'dan')).map((e) => e.text)).toEqual(['Please review PR 12']);

    // dan now has one unread, rita still two: dan again.
    const text = await cli('team', 'send', '--to-capability', 'review', 'And PR 13');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Sent to dan \(capability review: least loaded of 3\)/);
  });

  it('a working member comes after an idle one with more unread messages', async () => {
    for (const name of ['rita', 'dan']) await spawnMember({ root: openFsStores(dir.path), team: 'demo', name, capabilities: ['review'] });
    await live('rita');
    await live('dan', 'working');
    await sendMessage({ root: openFsStores(dir.path), team: 'demo', to: 'rita', text: 'queued' });
    const run = await cli('team', 'send', '--to-capability', 'review', 'Review this', '--json');
    expect((JSON.parse(run.stdout) as Routed).to).toBe('rita');
  });

  it('fails with NO_CAPABLE_MEMBER, sending nothing, when no live member declares it', async () => {
    await spawnMember({ root: openFsStores(dir.path), team: 'demo', name: 'sam', capabilities: ['review'] });
    const run = await cli('team', 'send', '--to-capability', 'review', 'Anyone?', '--json');
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { code: 'NO_CAPABLE_MEMBER', details: { capability: 'review', candidates: [{ name: 'sam', presence: 'stopped' }] } } });
    expect(await openFsStores(dir.path).team.readInbox('demo', 'sam')).toEqual([]);
    const both = await cli('team', 'send', 'sam', 'hi', '--to-capability', 'review');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either a recipient or --to-capability');
  });

  it('team ask --to-capability is answered by the process teammate it picked', async () => {
    await spawnMember({ root: openFsStores(dir.path), team: 'demo', name: 'sam', capabilities: ['review'] });
    const script = join(dir.path, 'rita.json');
    await writeFile(script, JSON.stringify([{ toolCalls: [{ name: 'SendMessage', input: { to: 'team-lead', message: 'LGTM' } }] }]));
    expect((await cli('team', 'spawn', 'rita', '--backend', 'process', '--model', `scripted:${script}`, '--capability', 'review')).code).toBe(0);
    const run = await cli('team', 'ask', '--to-capability', 'review', 'Is PR 12 good?', '--timeout', '30s');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('LGTM\n');
  });
});
