/**
 * ../shared/cases/09: a lock left behind (its holder SIGKILLed, or a directory made by hand an
 * hour ago) delays the next send by at most the stale window; the send succeeds (so within the
 * 15 s lock wait), says on stderr that it took over a stale lock, and nothing is lost.
 * Uses Claude Code's real 10 s stale time.
 */
import { mkdir, readFile, utimes } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMailroom } from '../../bench/lib/torture.mjs';
import { Layout } from '../../src/store/fs/paths.js';
import { startChild } from '../helpers/child.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';
import { makeTeam } from '../helpers/team-setup.js';

const CHILD = fileURLToPath(new URL('../helpers/lock-child.mjs', import.meta.url));

let tmp: TempDir;
let inbox: string;
const send = (text: string) => runMailroom(['--root', tmp.path, '--team', 't', 'team', 'send', 'team-lead', text, '--from', 'a']);
const texts = async () => (JSON.parse(await readFile(inbox, 'utf8')) as Array<{ text: string }>).map((e) => e.text);

beforeEach(async () => {
  tmp = await makeTempDir('mailroom-stale-');
  await makeTeam(tmp.path, 't', ['a']);
  inbox = new Layout(tmp.path).inboxPath('t', 'team-lead');
  expect((await send('before')).code).toBe(0);
});
afterEach(() => tmp.cleanup());

describe('case 09: a lock left by a killed process', () => {
  it('is taken over by the next send, which succeeds and says so on stderr', async () => {
    const holder = startChild(CHILD, ['hold', inbox, '10000']);
    await holder.waitForLine('locked');
    holder.proc.kill('SIGKILL');
    await holder.exited;
    const run = await send('after');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/took over a stale lock .*team-lead\.json\.lock/);
    expect(await texts()).toEqual(['before', 'after']);
  }, 30_000);

  it('variant: a lock directory made by hand with an mtime one hour old', async () => {
    await mkdir(`${inbox}.lock`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(`${inbox}.lock`, hourAgo, hourAgo);
    const run = await send('after');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/took over a stale lock/);
    expect(await texts()).toEqual(['before', 'after']);
  });
});
