/**
 * Case 09 (../shared/cases/09-stale-lock.md): a sender is killed with SIGKILL while it holds the
 * lock of inboxes/team-lead.json (the directory team-lead.json.lock stays behind). Variant: that
 * directory is made by hand with an mtime one hour old.
 * Expected: the next send succeeds within the stale window plus retry time (the CLI gives up
 * after 15 s, so success is the bound), says on stderr that it took over a stale lock, and no
 * message is lost.
 */
import { mkdir, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startChild } from '../helpers/child.js';
import { mailroomOk, readJson } from '../helpers/store-files.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

const LOCK_CHILD = fileURLToPath(new URL('../helpers/lock-child.mjs', import.meta.url));

let tmp: TempDir;
let root: string;
let inbox: string;
beforeEach(async () => {
  tmp = await makeTempDir('mailroom-case09-');
  root = tmp.path;
  inbox = join(root, 'teams/t/inboxes/team-lead.json');
  await mailroomOk(root, 'team', 'create', 't');
  await mailroomOk(root, 'team', 'spawn', 'alice');
  await mailroomOk(root, 'team', 'send', 'team-lead', 'before the crash', '--from', 'alice');
});
afterEach(() => tmp.cleanup());

const texts = async () => (await readJson<{ text: string }[]>(inbox)).map((e) => e.text);
const lockGone = () => stat(`${inbox}.lock`).then(() => false, () => true);

it('takes over the lock of a sender killed with SIGKILL while holding it', async () => {
  const holder = startChild(LOCK_CHILD, ['hold', inbox, '10000']);
  await holder.waitForLine('locked');
  holder.proc.kill('SIGKILL');
  await holder.exited;
  expect((await stat(`${inbox}.lock`)).isDirectory()).toBe(true);

  const run = await mailroomOk(root, 'team', 'send', 'team-lead', 'after the crash', '--from', 'alice');
  expect(run.stderr).toContain(`took over a stale lock ${inbox}.lock`);
  expect(await texts()).toEqual(['before the crash', 'after the crash']);
  expect(await lockGone()).toBe(true);
});

it('takes over a lock directory made by hand an hour ago', async () => {
  await mkdir(`${inbox}.lock`);
  const hourAgo = new Date(Date.now() - 3600_000);
  await utimes(`${inbox}.lock`, hourAgo, hourAgo);

  const run = await mailroomOk(root, 'team', 'send', 'team-lead', 'after the old lock', '--from', 'alice');
  expect(run.stderr).toContain(`took over a stale lock ${inbox}.lock`);
  expect(await texts()).toEqual(['before the crash', 'after the old lock']);
  expect(await lockGone()).toBe(true);
});
