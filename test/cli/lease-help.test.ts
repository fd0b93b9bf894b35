/** `lease acquire --help` states the least accepted --ttl (1000 ms), with no example below it. */
import { expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/store-files.js';

it('the --ttl help gives only examples it accepts, and the least value', async () => {
  const run = await runCli(['lease', 'acquire', '--help'], cleanEnv());
  const ttl = run.stdout.slice(run.stdout.indexOf('--ttl'), run.stdout.indexOf('--shared'));
  expect(ttl).not.toContain('500ms');
  expect(ttl.replace(/\s+/g, ' ')).toContain('at least 1000 ms');
});
