/**
 * `team ask … --timeout 5` waits 5 ms (a bare number is milliseconds, docs/cli.md): a new user who
 * meant 5 seconds saw only "did not reply within 5 ms" (new-user trial, session 18). The timeout
 * now says how the value was read and how to write seconds; `--timeout 5s` or a bare number of a
 * second or more gets no such hint. Real CLI processes; the asked member is made live by holding its
 * reader claim, and nobody answers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFsStores } from '../../src/store/open.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir, type TempDir } from '../helpers/temp-dir.js';

let dir: TempDir;
const cli = (...args: string[]) => runCli(['--root', dir.path, '--team', 'demo', ...args]);

beforeEach(async () => {
  dir = await makeTempDir('mailroom-ask-bare-');
  expect((await cli('team', 'create', 'demo')).code).toBe(0);
  expect((await cli('team', 'spawn', 'rita')).code).toBe(0);
  const store = openFsStores(dir.path).team;
  await store.claimReader('demo', 'rita', { kind: 'agent', host: 'test-host', pid: 10_004, startedAt: Date.now() });
});
afterEach(() => dir.cleanup());

describe('a bare --timeout under a second on team ask', () => {
  it.each([['5'], ['--timeout=5']])('%s: the timeout says it was milliseconds and how to write seconds', async (value) => {
    const args = value.startsWith('--') ? [value] : ['--timeout', value];
    const run = await cli('team', 'ask', 'rita', 'Is the CSV clean?', ...args);
    expect(run.code, run.stderr).toBe(9);
    expect(run.stderr).toMatch(/^mailroom: WAIT_TIMEOUT: rita did not reply within 5 ms; .* \(--timeout 5 is 5 ms: a bare number is milliseconds; --timeout 5s waits 5 seconds\.\)\n$/);
  });

  it.each([['500ms'], ['1000']])('--timeout %s: no hint (a unit, or a second or more)', async (value) => {
    const run = await cli('team', 'ask', 'rita', 'Is the CSV clean?', '--timeout', value);
    expect(run.code, run.stderr).toBe(9);
    expect(run.stderr).toContain('WAIT_TIMEOUT');
    expect(run.stderr).not.toContain('bare number');
  });
});
